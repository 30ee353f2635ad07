# The Amerikaner Discord bot. Games live in /app/data: mount it as a volume.

# Build stage: a C compiler, so the rules core and the AI are compiled with mypyc
# (bench/README.md).
FROM python:3.11-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip wheel --no-cache-dir -w /wheels .

FROM python:3.11-slim
# FriBiDi: Pillow's libraqm orders Persian words in pictures with it (bot/render/letters.py).
RUN apt-get update && apt-get install -y --no-install-recommends libfribidi0 \
    && rm -rf /var/lib/apt/lists/*
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/app/data/amerikaner.sqlite3
WORKDIR /app
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels \
    && useradd --create-home amerikaner && mkdir -p /app/data && chown amerikaner /app/data
USER amerikaner
VOLUME ["/app/data"]
CMD ["amerikaner", "bot"]
