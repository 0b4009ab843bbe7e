"""WSGI entry point: ``gunicorn -k gevent -w 2 services.windcity.wsgi:app``."""

from services.windcity.app import create_app

app = create_app()
