# Shared by the kill tests (tests/cli/kill_*.sh; docs/DURABILITY.md). Sourced, not a test itself.
#
#   kill_and_finish SEED KILLS MAX_MS CMD...   runs CMD KILLS times, each killed with SIGKILL after a
#                                              random delay in [0, MAX_MS) ms ($RANDOM seeded with
#                                              SEED), then once to completion
#   digest_tree DIR                            one line per file under DIR: path and a digest of
#                                              the content with the timing fields taken out
#   now_ms                                     milliseconds since the epoch
#   wait_until SECONDS CMD...                  polls CMD every 10 ms ($WAIT_POLL s when set) until it succeeds (status 0)
#                                              or SECONDS of wall time have passed (status 1): a
#                                              deadline, not a count of polls, so a loaded machine
#                                              (each poll a fork) does not shorten the wait

#   signal_at_line SIGNAL REGEX CMD...          runs CMD with its stderr into a one-page pipe, sends SIGNAL
#                                              when a line matches REGEX (Python re.search), then
#                                              copies the rest; $rc is CMD's exit status, int-err.txt
#                                              its stderr. No clock decides anything: the test reads
#                                              nothing from the pipe between the match and the signal,
#                                              so CMD blocks once a page of stderr is unread (with
#                                              train --log-every 1, about 65 steps past the match).
#                                              $rc is 124 when CMD ended without a matching line.

#   signal_at_gate SIGNAL GATE CMD...          runs CMD with LTLKIT_TEST_GATE_GATE naming a fresh gate
#                                              file (docs/DURABILITY.md "Test gates"), sends SIGNAL
#                                              once CMD is held there (at most 300 s), and waits; $rc
#                                              is its exit status (124 when it never got there),
#                                              int-err.txt its stderr. The gate stays closed: CMD is
#                                              at that point when the signal comes, however slow.

now_ms() { date +%s%3N; }

signal_at_gate() {
    local sig=$1 gate=$PWD/gate-$2
    shift 2
    rm -f "$gate" "$gate.reached"
    env "LTLKIT_TEST_GATE_${gate##*/gate-}=$gate" "$@" >/dev/null 2>int-err.txt &
    local pid=$!
    if wait_until 300 test -e "$gate.reached"; then
        kill "-$sig" "$pid"
        wait "$pid"
        rc=$?
    else
        kill -KILL "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
        rc=124
    fi
}

signal_at_line() {
    local sig=$1 regex=$2
    shift 2
    python3 - "$sig" "$regex" "$@" <<'PY'
import fcntl, re, signal, subprocess, sys
sig, regex, cmd = getattr(signal, "SIG" + sys.argv[1]), re.compile(sys.argv[2]), sys.argv[3:]
# bufsize=0: lines are read a byte at a time, nothing is read ahead of the matching line.
p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, bufsize=0)
fcntl.fcntl(p.stderr.fileno(), 1031, 4096)  # F_SETPIPE_SZ: one page, so CMD cannot run far ahead
sent = False
with open("int-err.txt", "wb") as log:
    for line in p.stderr:
        log.write(line)
        if not sent and regex.search(line.decode(errors="replace")):
            p.send_signal(sig)
            sent = True
rc = p.wait()
sys.exit((rc if rc >= 0 else 128 - rc) if sent else 124)
PY
    rc=$?
}

wait_until() {
    local deadline=$((SECONDS + $1))
    shift
    until "$@"; do
        ((SECONDS < deadline)) || return 1
        sleep "${WAIT_POLL:-0.01}"
    done
}

# Failures are counted in $fails; a script ends with `exit $((fails > 0))`.
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# kill_vs_reference SEED KILLS REF KILLED CMD...: runs `CMD --out REF` without interruption, then
# `CMD --out KILLED` killed KILLS times (kill_and_finish, delays within 60 % of the reference's
# time) and run to the end; the two trees must agree under digest_tree (timing fields aside).
kill_vs_reference() {
    local seed=$1 kills=$2 ref=$3 killed=$4
    shift 4
    local t0 ms
    t0=$(now_ms)
    "$@" --out "$ref" >/dev/null 2>err.txt || { fail "reference exited $?: $(cat err.txt)"; return; }
    ms=$(( $(now_ms) - t0 ))
    echo "reference $ref: $ms ms"
    kill_and_finish "$seed" "$kills" $((ms * 6 / 10 > 20 ? ms * 6 / 10 : 20)) "$@" --out "$killed" \
        || fail "$killed: the run after the kills failed"
    digest_tree "$ref" > "$ref.digest" || fail "bad checksum in $ref"
    digest_tree "$killed" > "$killed.digest" || fail "bad checksum in $killed"
    diff "$ref.digest" "$killed.digest" || fail "$killed: files differ from the uninterrupted run (timing aside)"
}

kill_and_finish() {
    local seed=$1 kills=$2 max_ms=$3
    shift 3
    RANDOM=$seed
    echo "kill seed $seed: $kills kills within ${max_ms} ms"
    local i delay pid
    for ((i = 1; i <= kills; i++)); do
        delay=$(( (RANDOM * 32768 + RANDOM) % max_ms ))
        "$@" >/dev/null 2>>kill-stderr.txt &
        pid=$!
        sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
        if kill -KILL "$pid" 2>/dev/null; then
            echo "  kill $i: SIGKILL after ${delay} ms"
        else
            echo "  kill $i: finished before ${delay} ms"
        fi
        wait "$pid" 2>/dev/null
    done
    "$@" >/dev/null 2>>kill-stderr.txt || { echo "FAIL: the final run exited $?"; cat kill-stderr.txt; return 1; }
}

# Digest of every file under DIR (sorted, hidden files included). JSON files (*.json, *.jsonl lines)
# lose the timing fields (wall_seconds, train_seconds, tokens_per_second, eval_seconds,
# eval_tokens_per_second, and the training log's seconds) and their embedded
# "sha256" (which covers the timings; it is checked first); checkpoint.pt is compared through the
# training-state digest of its header (its checksum is checked first; the LibTorch archive's bytes
# differ between processes even for equal states); report.md/report.html lose the date and the
# per-run wall times and tokens/s. Everything else is compared byte for byte.
digest_tree() {
    python3 - "$1" <<'PY'
import hashlib, json, os, re, sys
root = sys.argv[1]
TIMING = {"wall_seconds", "train_seconds", "tokens_per_second", "eval_seconds", "eval_tokens_per_second",
          "seconds"}

def strip(o):
    if isinstance(o, dict):
        return {k: strip(v) for k, v in o.items() if k not in TIMING}
    if isinstance(o, list):
        return [strip(v) for v in o]
    return o

class Raw(str):
    """A number token exactly as written."""

class Obj(list):
    """An object's (key, value) pairs in file order."""

def compact(v):
    # The compact text ltlkit's checksum covers (docs/DURABILITY.md), rebuilt with every number
    # token as the file writes it. Re-dumping parsed floats with Python's repr would not do: the
    # writer's shortest-digits algorithm (Grisu2) gives a longer, equally exact text for about 1 in
    # 4,000 doubles (151.70637073051861 where repr says 151.7063707305186), so a run whose timing
    # fields happen to hit one would fail its own checksum here now and then.
    if isinstance(v, Obj):
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + compact(x) for k, x in v) + "}"
    if isinstance(v, list):
        return "[" + ",".join(compact(x) for x in v) + "]"
    if isinstance(v, Raw):
        return str(v)
    return json.dumps(v, ensure_ascii=False)

def check_json(text, where):
    raw = json.loads(text, object_pairs_hook=Obj, parse_float=Raw, parse_int=Raw)
    if isinstance(raw, Obj) and any(k == "sha256" for k, _ in raw):
        want = [x for k, x in raw if k == "sha256"][0]
        got = hashlib.sha256(compact(Obj((k, x) for k, x in raw if k != "sha256")).encode()).hexdigest()
        if got != want:
            sys.exit("bad embedded sha256 in " + where)
    o = json.loads(text)
    if isinstance(o, dict):
        o.pop("sha256", None)
    return json.dumps(strip(o), sort_keys=True)

for d, dirs, files in os.walk(root):
    # verify's per-session claim files of its worker processes (bookkeeping, not results)
    dirs[:] = sorted(x for x in dirs if not (d == root and x == ".claims"))
    for f in sorted(files):
        p = os.path.join(d, f)
        rel = os.path.relpath(p, root)
        data = open(p, "rb").read()
        if f.endswith(".json"):
            data = check_json(data.decode(), rel).encode()
        elif f.endswith(".jsonl"):
            data = "\n".join(check_json(l, rel) for l in data.decode().splitlines()).encode()
        elif f == "checkpoint.pt":
            nl = data.index(b"\n")
            head, body = data[:nl].decode(), data[nl + 1:]
            prefix, want = head.split(" sha256=")
            if hashlib.sha256(prefix.encode() + b"\n" + body).hexdigest() != want:
                sys.exit("bad checkpoint checksum in " + rel)
            # The training-state digest (LibTorch archive bytes differ between processes).
            data = [w for w in prefix.split() if w.startswith("state=")][0].encode()
        elif f in ("report.md", "report.html"):
            t = data.decode()
            t = re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", "DATE", t)
            t = re.sub(r"\d+ s\b", "N s", t)
            t = re.sub(r'<td class="timing">[^<]*</td>', "TIMING", t)
            data = t.encode()
        print(rel, hashlib.sha256(data).hexdigest())
PY
}

# --- for the corruption tests (corrupt_files.sh, corrupt_verify.sh); they define fail().

# expect CODE PATTERN CMD...: CMD exits CODE and its stderr's first line matches PATTERN.
expect() {
    local code=$1 pattern=$2
    shift 2
    "$@" >out.txt 2>err.txt
    local rc=$?
    [[ $rc -eq $code ]] || fail "'$*' exited $rc, want $code: $(head -1 err.txt)"
    head -1 err.txt | grep -q -- "$pattern" || fail "'$*': first stderr line '$(head -1 err.txt)' lacks '$pattern'"
    [[ ! -s out.txt ]] || fail "'$*' wrote to stdout on failure"
}
# bump FILE KEY: adds 1 to the last digit of the first "KEY": <number> (stays valid JSON).
bump() {
    python3 - "$1" "$2" <<'PY'
import re, sys
p, key = sys.argv[1], sys.argv[2]
t = open(p).read()
m = re.search('"%s": *(-?[0-9.]+)' % re.escape(key), t)
i = m.end(1) - 1
t = t[:i] + str((int(t[i]) + 1) % 10) + t[i + 1:]
open(p, "w").write(t)
PY
}
