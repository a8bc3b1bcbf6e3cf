# syntax=docker/dockerfile:1
# One image recipe for every Node service of the workspace (api, ocpp-gateway, msg-center).
# Build context: the repository root, e.g.
#   docker build -f docker/node-service.Dockerfile --build-arg APP=api .
ARG APP

FROM node:20-slim AS build
ARG APP
WORKDIR /repo
ENV NX_DAEMON=false NX_NO_CLOUD=true NX_SKIP_NX_CACHE=true
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY nx.json tsconfig.base.json ./
COPY libs ./libs
COPY apps/${APP} ./apps/${APP}
RUN test -n "${APP}" && npx nx run "${APP}:build"

FROM node:20-slim AS runtime
ARG APP
ENV NODE_ENV=production APP=${APP}
WORKDIR /app
# The api renders bills and reports as PDF in Noto Sans CJK (libs/server/documents; DOCUMENT_FONT_PATH).
RUN if [ "${APP}" = "api" ]; then \
      apt-get update && apt-get install -y --no-install-recommends fonts-noto-cjk && rm -rf /var/lib/apt/lists/*; \
    fi
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /repo/dist/apps/${APP} ./dist/apps/${APP}
USER node
# exec: node replaces the shell as PID 1 and handles SIGTERM itself (graceful Nest shutdown).
# Other entry points of the same app (migrations, workers) are given as the compose `command`.
CMD ["sh", "-c", "exec node dist/apps/${APP}/apps/${APP}/src/main.js"]
