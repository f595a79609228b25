# AppFlip Conformance in a container: built with the official Swift image (the Swift runtime linked into the
# binary, Scripts/build-static.sh, and the cases and catalog compiled in), run from a slim Debian image.
#
#   docker build -t appflip-conformance .
#   docker run --rm -v "$PWD/Reports:/suite/Reports" appflip-conformance                 # the reference run
#   docker run --rm -v "$PWD/Reports:/suite/Reports" appflip-conformance run --config /suite/my.target ...
#
# To test your own adapter, build FROM this image, COPY the adapter in, and give its path after `--`. The runtime
# image holds the binary and nothing else: an adapter in Python (or another interpreter) needs its interpreter too,
#
#   docker build --build-arg RUNTIME_PACKAGES=python3 -t appflip-conformance .
#
# installs it (any Debian packages, space-separated) into the runtime image.
FROM swift:6.3-bookworm AS build
RUN apt-get update && apt-get install -y --no-install-recommends libcurl4-openssl-dev libssl-dev && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Plugins ./Plugins
COPY Conformance ./Conformance
COPY Tests ./Tests
COPY Scripts ./Scripts
RUN Scripts/build-static.sh --output /usr/local/bin/appflip-conformance

FROM debian:bookworm-slim
ARG RUNTIME_PACKAGES=""
RUN apt-get update && apt-get install -y --no-install-recommends libcurl4 libssl3 libstdc++6 ca-certificates $RUNTIME_PACKAGES \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /usr/local/bin/appflip-conformance /usr/local/bin/appflip-conformance
# The cases and catalog are compiled into the binary: nothing else to copy.
WORKDIR /suite
ENTRYPOINT ["appflip-conformance"]
CMD ["run", "--target", "reference"]
