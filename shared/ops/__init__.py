"""Operations: settings from the environment (``config``) and Prometheus metrics
(``metrics``).

The bottom layer of the kit: every other layer may import it; it imports nothing of the
kit."""
