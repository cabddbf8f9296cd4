# One image recipe for every Node process of the product (gateway, services, workers).
#   docker build -f infra/cli/docker/node-app.Dockerfile --build-arg APP_DIR=services/user .
# The build stage installs from the lock file and bundles the runnable with esbuild (our @decor/*
# packages are bundled in, third-party ones stay external). The runtime stage installs, at the lock
# file's versions, only the production dependencies of that one workspace and the @decor/* packages
# it uses: no dev tools, no other workspace's dependencies (infra's emulators and test tools never
# reach a service image).
FROM node:24-bookworm-slim AS build
WORKDIR /repo
COPY . .
RUN npm ci --ignore-scripts --no-audit --no-fund
ARG APP_DIR
RUN npx tsx infra/cli/src/build.ts ${APP_DIR}
# The runtime install's manifests: this workspace and the @decor/* ones it depends on, the lock file.
RUN node infra/cli/docker/only-workspace.cjs ${APP_DIR} /manifests

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /repo
ARG APP_DIR
COPY --from=build /manifests/ ./
# Not `npm ci`: it installs every workspace of the lock file whatever --workspace says; `install` on
# the narrowed manifests keeps the lock file's versions (checked: no version differs) and prunes the rest.
RUN npm install --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /repo/${APP_DIR}/dist ${APP_DIR}/dist
WORKDIR /repo/${APP_DIR}
USER node
# ENTRY is main (HTTP + event consumers) or worker (BullMQ jobs); set by docker-compose.
ENV ENTRY=main
CMD ["sh", "-c", "exec node --enable-source-maps --disable-warning=TimeoutNegativeWarning dist/${ENTRY}.js"]
