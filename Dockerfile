# One image for both services; docker-compose.yml picks the app with GAME.
FROM python:3.11-slim
WORKDIR /app
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
COPY pyproject.toml README.md gunicorn.conf.py ./
COPY shared ./shared
COPY services ./services
COPY clients ./clients
RUN pip install --no-cache-dir . && useradd --system --uid 10001 app
USER app
ENV GAME=manhattan PORT=8001 WEB_CLIENT_DIR=/app/clients/web
EXPOSE 8001 8002
CMD ["sh", "-c", "exec gunicorn -c gunicorn.conf.py --bind 0.0.0.0:${PORT} \"services.${GAME}.app:create_app()\""]
