#!/bin/bash
# per-call instructions: (Ir(N+1 iters) - Ir(1 iter)) / N
bin=$1; shift
ir(){ valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$bin" "$@" 2>&1 | grep "I *refs" | awk '{gsub(",","",$4); print $4}'; }
a=$(ir "${@:1:4}" 1); b=$(ir "${@:1:4}" 21)
echo $(( (b - a) / 20 ))
