# goga on Debian 12 with Open MPI, ScaLAPACK and OpenBLAS.
#   docker build -t goga .
#   docker run --rm goga                  # the demo on 4 ranks
# Every dependency step lives in scripts/install-deps.sh, which CI runs too.
FROM golang:1.26-bookworm
WORKDIR /src/goga
COPY scripts/install-deps.sh scripts/install-deps.sh
COPY go.mod ./
COPY go.sum* ./
RUN scripts/install-deps.sh
COPY . .
RUN go build -o /usr/local/bin/goga-demo ./cmd/demo
ENV OPENBLAS_NUM_THREADS=1
CMD ["./mpirun.sh", "-np", "4", "/usr/local/bin/goga-demo"]
