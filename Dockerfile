# syntax=docker/dockerfile:1
# The service image, on Node 22 (a supported line; package.json keeps engines at >=20): built in one stage (native better-sqlite3 needs a compiler), run in a slim one as a non-root user.

FROM node:22-bookworm-slim AS build
WORKDIR /app
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
# The web console: its source, and the API types it is built against.
COPY web ./web
COPY client ./client
RUN npm run build && npm prune --omit=dev

FROM node:22-bookworm-slim
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/dist-web ./dist-web
RUN mkdir -p /data /snapshots && chown node:node /data /snapshots
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The same Node flag as `npm start` (see docs/configuration.md): a smaller young generation, for less memory.
CMD ["node", "--max-semi-space-size=4", "dist/main.js"]
