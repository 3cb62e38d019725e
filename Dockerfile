# syntax=docker/dockerfile:1
# Parlor's server as an image: built from this source with the same command
# scripts/cluster.sh builds it with, run as a user that is not root (by
# number, for runAsNonRoot), in a small runtime image (Debian's slim base,
# the one stripped binary, no shell tools: `parlor health` is the health
# check).
#
#   docker build -t parlor .
#   docker run -p 8080:8080 -v parlor-data:/var/lib/parlor parlor
#   docker run -p 8080:8080 -e PARLOR_DATABASE_URL=postgres://parlor@db/parlor parlor
#
# Every option of `parlor serve` is an environment variable (docs/deploy.md).
# `docker stop` sends SIGTERM and waits 10 s: the server drains for 2 s (not
# ready, new moves refused with 503, live streams told to reconnect), gives
# the requests being answered 6 s more, and exits within 9 s.

# Base images pinned to a release, not a floating tag; bump them on purpose.
FROM rust:1.95-slim-bookworm AS build
WORKDIR /src
COPY . .
# Cargo's downloads and the build's output are kept between builds (BuildKit
# cache mounts): a change to Parlor's source rebuilds Parlor, not its
# dependencies. The binary is stripped of its symbols (about a fifth of the
# size).
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    CARGO_PROFILE_RELEASE_STRIP=symbols cargo build --release --locked -p parlor \
    && cp target/release/parlor /usr/local/bin/parlor

FROM debian:12.12-slim
RUN useradd --system --uid 10001 --user-group --create-home --home-dir /var/lib/parlor parlor
COPY --from=build /usr/local/bin/parlor /usr/local/bin/parlor
USER 10001:10001
ENV PARLOR_ADDR=0.0.0.0:8080 \
    PARLOR_DATA_DIR=/var/lib/parlor \
    PARLOR_LOG_FORMAT=json \
    PARLOR_DRAIN_DELAY=2 \
    PARLOR_SHUTDOWN_GRACE=6
EXPOSE 8080
VOLUME ["/var/lib/parlor"]
STOPSIGNAL SIGTERM
# `parlor health` asks GET /healthz on PARLOR_ADDR (0.0.0.0 as loopback).
HEALTHCHECK --interval=10s --timeout=5s --start-period=10s --retries=3 \
    CMD ["parlor", "health"]
ENTRYPOINT ["parlor"]
CMD ["serve"]
