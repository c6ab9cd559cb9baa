# Spy League: one image for the web server, the Celery worker and Celery beat.
FROM python:3.12-slim AS base
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app
RUN useradd --create-home --uid 1000 spyleague
COPY pyproject.toml README.md ./
COPY spyleague ./spyleague
COPY games ./games
COPY pairing ./pairing
RUN pip install .
COPY manage.py ./
COPY templates ./templates
COPY static ./static
# Static files are collected at build time and served by WhiteNoise.
RUN DJANGO_DEBUG=0 SECRET_KEY=collectstatic-only ALLOWED_HOSTS=localhost python manage.py collectstatic --noinput -v 0
USER spyleague
EXPOSE 8000
# Uvicorn workers under gunicorn: ASGI, so live match updates can stream.
CMD ["gunicorn", "spyleague.asgi:application", "-k", "spyleague.server.Worker", "-b", "0.0.0.0:8000", "-w", "3", "--access-logfile", "-"]
