# Parlor's server as an image: built from this source with the same command
# scripts/cluster.sh builds it with, run as a user that is not root, in a
# small runtime image (Debian's slim base, the one binary, no shell tools).
#
#   docker build -t parlor .
#   docker run -p 8080:8080 -v parlor-data:/var/lib/parlor parlor
#   docker run -p 8080:8080 -e PARLOR_DATABASE_URL=postgres://parlor@db/parlor parlor
#
# Every option of `parlor serve` is an environment variable (docs/deploy.md).
# `docker stop` sends SIGTERM: the server drains (not ready, new moves
# refused with 503, live streams told to reconnect), then exits.

FROM rust:1-slim-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked -p parlor \
    && cp target/release/parlor /usr/local/bin/parlor

FROM debian:bookworm-slim
RUN useradd --system --uid 10001 --user-group --create-home --home-dir /var/lib/parlor parlor
COPY --from=build /usr/local/bin/parlor /usr/local/bin/parlor
USER parlor
ENV PARLOR_ADDR=0.0.0.0:8080 \
    PARLOR_DATA_DIR=/var/lib/parlor \
    PARLOR_LOG_FORMAT=json \
    PARLOR_DRAIN_DELAY=2
EXPOSE 8080
VOLUME ["/var/lib/parlor"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["parlor"]
CMD ["serve"]
