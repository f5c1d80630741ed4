#!/bin/sh
# Whole-process figures of `overlord run`: from the game folder to the flushed
# turn, reading the state, playing the month, writing the state and every report.
# Prints one line per world: runs, wall seconds (min, median, max), peak memory.
#
#   benches/whole-process.sh [WORK_DIR] [RUNS]
#   BENCH_AGAINST=path/to/other/overlord benches/whole-process.sh ...
#
# WORK_DIR (default /dev/shm/overlord-bench, memory-backed so that the disk's
# other traffic does not count) holds the worlds, made once and kept. Worlds:
#   alpha-x100  the original alpha game cloned 100 times and imported (27,500
#               units); made only when ../shared/reference/overlord-alpha and
#               ../shared/tools/clone_legacy_world.py are there, skipped otherwise;
#   gen-100k    a generated world of 100,000 units (20,000 places, 500 factions);
#   gen-1m      a generated world of 1,000,000 units (200,000 places, 5,000
#               factions), only with BENCH_1M=1 (it takes minutes and GBs);
#   flat-1k, flat-50k  100,000 units on 20,000 places, of 1,000 or 50,000
#               factions, only with BENCH_FLAT=1: how the cost grows with the
#               number of factions on the same units.
# The month column is the month alone (its median), as `overlord run -v` logs it.
# Each run copies the game folder first (not timed, files' times kept), so every
# run plays the same turn. A state the engine wrote is read without validating
# it again (docs/reliability.md); a world made by an engine of another index
# layout, or by one that validates every state, is validated at every run, and
# its line says so. With BENCH_AGAINST, each run of this build is followed by
# one of that binary on the same world, and its line ("against") follows: this
# machine's speed varies from hour to hour, so two binaries compare fairly only
# interleaved (the mail lines are of this build alone). Then a mail: `overlord
# check` and `overlord submit` of the first player's order template, 20 times
# each (through the turn's mail index; the first, not timed, makes the index
# when the world was made by an older engine). Needs /usr/bin/time (GNU time)
# and python3.
set -eu
cd "$(dirname "$0")/.."
WORK=${1:-/dev/shm/overlord-bench}
RUNS=${2:-5}
BIN=target/release/overlord
AGAINST=${BENCH_AGAINST:-}
cargo build --release --quiet
mkdir -p "$WORK"

make_generated() { # name locations factions units
    [ -d "$WORK/$1" ] && return 0
    "$BIN" generate --locations "$2" --factions "$3" --units "$4" "$WORK/$1-scenario" >/dev/null
    "$BIN" new "$WORK/$1-scenario" "$WORK/$1" >/dev/null
}

make_alpha() { # name copies
    [ -d "$WORK/$1" ] && return 0
    ref=../shared/reference/overlord-alpha
    tool=../shared/tools/clone_legacy_world.py
    if [ ! -d "$ref" ] || [ ! -f "$tool" ]; then
        echo "$1: skipped ($ref or $tool is not there)" >&2
        return 1
    fi
    python3 "$tool" "$ref" "$WORK/$1-legacy" "$2" 0 >/dev/null
    "$BIN" import-legacy "$WORK/$1-legacy" "$WORK/$1-import" >/dev/null 2>&1
    "$BIN" new "$WORK/$1-import/scenarios/alpha" "$WORK/$1" >/dev/null
}

# One run of binary $1 on a fresh copy of world $2: "seconds kilobytes month
# checked", checked 1 when the run validated the state (the world's mail index
# did not vouch for it: made by an engine of another index layout, or edited).
# The copy keeps the files' times, as a game folder left between turns has them.
run_once() { # binary world
    rm -rf "$WORK/run"
    cp -a "$WORK/$2" "$WORK/run"
    out=$(/usr/bin/time -f "%e %M" "$1" run "$WORK/run" -vv --no-progress 2>"$WORK/run.log" >/dev/null; tail -n 1 "$WORK/run.log")
    checked=$(grep -c "state validated" "$WORK/run.log" || true)
    echo "$out $(sed -n 's/.*month run seconds=\([0-9.]*\).*/\1/p' "$WORK/run.log" | cut -c1-5) $checked"
    rm -rf "$WORK/run" "$WORK/run.log"
}

# A line of the table from runs "seconds kilobytes month", one per line.
row() { # label runs
    sorted=$(echo "$2" | cut -d' ' -f1 | sort -n)
    min=$(echo "$sorted" | head -n 1)
    max=$(echo "$sorted" | tail -n 1)
    med=$(echo "$sorted" | sed -n "$(((RUNS + 1) / 2))p")
    peak=$(echo "$2" | cut -d' ' -f2 | sort -n | tail -n 1)
    month=$(echo "$2" | cut -d' ' -f3 | sort -n | sed -n "$(((RUNS + 1) / 2))p")
    checked=$(echo "$2" | cut -d' ' -f4 | sort -n | tail -n 1)
    note=""
    if [ "${checked:-0}" != 0 ]; then note="  (state validated)"; fi
    printf '%-12s %2d runs  %6s s  %6s s  %6s s  %5d MB  %6s s%s\n' "$1" "$RUNS" "$min" "$med" "$max" $((peak / 1024)) "$month" "$note"
}

measure() { # name
    ours=""
    theirs=""
    i=0
    while [ "$i" -lt "$RUNS" ]; do
        ours="$ours$(run_once "$BIN" "$1")
"
        if [ -n "$AGAINST" ]; then
            theirs="$theirs$(run_once "$AGAINST" "$1")
"
        fi
        i=$((i + 1))
    done
    row "$1" "$(echo "$ours" | sed '/^$/d')"
    if [ -n "$AGAINST" ]; then row "  against" "$(echo "$theirs" | sed '/^$/d')"; fi
}

mail() { # name scenario
    if [ ! -f "$2/factions.ron" ]; then
        # The game's state holds passwords hashed: a player's is read from the
        # scenario the world was made from.
        echo "$1: mail not measured: $2 (the scenario the world was made from) is gone"
        return 0
    fi
    rm -rf "$WORK/mail"
    cp -a "$WORK/$1" "$WORK/mail"
    set -- "$1" "$(awk '/^    id: "/ { id = $2 } /^    password: "/ { print id, $2; exit }' "$2/factions.ron" | tr -d '",')"
    faction=${2% *}
    "$BIN" report "$WORK/mail" "$faction" --template | sed "s/<password>/${2#* }/" >"$WORK/mail.txt"
    python3 - "$BIN" "$WORK/mail" "$WORK/mail.txt" "$1" <<'PY'
import statistics, subprocess, sys, time
bin, game, mail, name = sys.argv[1:]
subprocess.run([bin, "check", game, mail], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
for command in ("check", "submit"):
    times = []
    for _ in range(20):
        t = time.perf_counter()
        subprocess.run([bin, command, game, mail], stdout=subprocess.DEVNULL, check=True)
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    print("%-12s %-7s 20 runs  %5.1f ms  %5.1f ms  %5.1f ms" % (name, command, times[0], statistics.median(times), times[-1]))
PY
    rm -rf "$WORK/mail" "$WORK/mail.txt"
}

printf '%-12s %7s  %8s  %8s  %8s  %8s  %8s\n' world runs min median max peak month
if make_alpha alpha-x100 100; then measure alpha-x100; fi
make_generated gen-100k 20000 500 100000 && measure gen-100k
if [ "${BENCH_1M:-0}" = 1 ]; then
    make_generated gen-1m 200000 5000 1000000 && measure gen-1m
fi
if [ "${BENCH_FLAT:-0}" = 1 ]; then
    make_generated flat-1k 20000 1000 100000 && measure flat-1k
    make_generated flat-50k 20000 50000 100000 && measure flat-50k
fi
printf '%-12s %-7s %7s  %8s  %8s  %8s\n' world mail runs min median max
if [ -d "$WORK/alpha-x100" ]; then mail alpha-x100 "$WORK/alpha-x100-import/scenarios/alpha"; fi
mail gen-100k "$WORK/gen-100k-scenario"
if [ "${BENCH_1M:-0}" = 1 ]; then mail gen-1m "$WORK/gen-1m-scenario"; fi
