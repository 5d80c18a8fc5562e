# Placet image: multi-stage, runs as the unprivileged `node` user, Debian's Chromium for the website scanner.
# Build: docker build -t placet .   Run: see compose.yaml and README "Docker".
# Supported Node versions are 20 and 22; the image uses 22, the current LTS.
FROM node:22-bookworm-slim AS build
# A C++ toolchain for the SQLite driver (better-sqlite3 compiles when no prebuilt binary matches).
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/build.mjs scripts/
COPY src src
COPY widget widget
COPY console console
COPY data data
# `npm ci` runs `prepare`, which builds dist/ (esbuild, a runtime dependency) and checks the widget budget.
RUN npm ci --omit=dev --no-audit --no-fund \
 && npm cache clean --force

FROM node:22-bookworm-slim
# chromium: the scanner's browser; tini: reaps the browser's child processes and forwards signals.
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium tini \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /var/lib/placet \
 && chown node:node /var/lib/placet
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
# The widget is bundled from its source at start; presets.json is shipped data, apart from the database volume.
COPY --from=build /app/widget/src widget/src
COPY --from=build /app/data data
COPY docker/entrypoint.sh /usr/local/bin/placet
ENV PLACET_HOME=/app \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATABASE_URL=sqlite:/var/lib/placet/placet.sqlite \
    CHROMIUM_PATH=/usr/bin/chromium
USER node
VOLUME ["/var/lib/placet"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 CMD ["placet", "healthcheck"]
ENTRYPOINT ["/usr/bin/tini", "--", "/usr/local/bin/placet"]
CMD ["serve"]
