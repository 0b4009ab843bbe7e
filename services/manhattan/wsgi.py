"""WSGI entry point: ``gunicorn -k gevent -w 2 services.manhattan.wsgi:app``."""

from services.manhattan.app import create_app

app = create_app()
