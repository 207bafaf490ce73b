#!/usr/bin/env bash
# Hostile input and faults (docs/ERRORS.md "Hostile input", docs/DURABILITY.md "What is never
# touched"): deep JSON in every position that an error quotes, special files as inputs and outputs
# (FIFOs, /dev/zero, devices), failed writes to stdout (/dev/full, a closed stdout), symbolic links
# as -o targets and as a folder's .lock, numbers that would wrap, constructions whose time and
# memory blow up at few states, and messages (non-UTF-8 symbols, hex windows, JSON number
# overflow, certificate kinds). Each family is generated, so that the next input of the same family
# is found here, not by a person.
# Usage: bash hostile_input.sh LTLKIT_BIN SOURCE_DIR (run in a scratch folder)
set -u
bin=$1
neural=$(dirname "$bin")/ltlkit-neural
fails=0
fail() { echo "FAIL: $*" | cut -c1-300; fails=$((fails + 1)); }
eval "$(sed -n '/^wait_until() {/,/^}/p' "$2/tests/cli/kill_lib.bash")"  # its wait_until only
export LC_ALL=C.UTF-8

rm -rf hostile && mkdir hostile && cd hostile || exit 1

# expect WANT_RC WANT_FIRST_LINE_PREFIX ARGS...: exit code, first stderr line, empty stdout,
# within 300 s (a safety limit: a hang or a crash is a failure; a slow machine is not).
expect() {
    local want_rc=$1 want=$2 rc
    shift 2
    timeout 300 "$bin" "$@" >out.txt 2>err.txt < /dev/null
    rc=$?
    [[ $rc -eq $want_rc ]] || { fail "[$*]: exit $rc, want $want_rc"; head -c 300 err.txt; echo; }
    [[ -s out.txt ]] && fail "[$*]: stdout not empty"
    [[ $(head -n 1 err.txt) == "$want"* ]] || { fail "[$*]: first stderr line"; echo "   got: $(head -n 1 err.txt | head -c 300)"; echo "  want: $want..."; }
    [[ $(wc -c < err.txt) -le 1500 ]] || fail "[$*]: $(wc -c < err.txt) bytes on stderr"
}

# ---- deep JSON wherever a DFA file or a certificate may hold a value (no recursion, no crash)
deep() { python3 -c "import sys; n=int(sys.argv[1]); print('['*n + ']'*n)" "$1"; }
D=$(deep 100000)
dfa_with() {  # alphabet initial accepting transitions
    printf '{"alphabet": %s, "initial": %s, "accepting": %s, "transitions": %s}\n' "$1" "$2" "$3" "$4"
}
dfa_with "[$D]" 0 '[]' '[[0]]' > deep_alphabet.json
dfa_with '["a"]' "$D" '[]' '[[0]]' > deep_initial.json
dfa_with '["a"]' 0 "[$D]" '[[0]]' > deep_accepting.json
dfa_with '["a"]' 0 '[]' "[[$D]]" > deep_target.json
dfa_with '["a"]' 0 '[]' "[$D]" > deep_row.json
dfa_with '["a"]' 0 '[]' "$D" > deep_transitions.json
printf '{"alphabet": ["a"], "initial": 0, "accepting": [], "transitions": [[0]], "x": %s}\n' "$D" > deep_key.json
for f in deep_*.json; do
    expect 2 "ltlkit: error: $f:1:" compile --dfa "$f"
    grep -q 'nested deeper than 128 levels' err.txt || fail "$f: no depth message: $(head -c 200 err.txt)"
done
# at the bound: 127 levels are read, and the error quotes a bounded excerpt
dfa_with "[$(deep 120)]" 0 '[]' '[[0]]' > deep120.json
expect 2 "ltlkit: error: deep120.json: DFA JSON: alphabet entry 0 is not a string: [[[[" compile --dfa deep120.json
# a huge flat value is quoted in at most ~60 characters
python3 -c 'print("{\"alphabet\": [[" + ",".join(["1"] * 200000) + "]], \"initial\": 0, \"accepting\": [], \"transitions\": [[0]]}")' > wide.json
expect 2 "ltlkit: error: wide.json: DFA JSON: alphabet entry 0 is not a string: [1,1,1" compile --dfa wide.json
[[ $(head -n 1 err.txt | wc -c) -lt 200 ]] || fail "wide value quoted at length"
for pos in dfa class kind member family; do
    python3 - "$pos" > cert_$pos.json <<'EOF'
import sys
pos, deep = sys.argv[1], "[" * 100000 + "]" * 100000
c = {"dfa": '{"alphabet":["a","b"],"initial":0,"accepting":[0],"transitions":[[0,0]]}', "class": '"definite"',
     "kind": '"suffix_family"', "member": "false", "family": '{"x":"","p":"a","y":"","z":"b","r_min":1}'}
c[pos] = deep
print("{" + ", ".join('"%s": %s' % (k, v) for k, v in c.items()) + "}")
EOF
    expect 2 "ltlkit: error: cert_$pos.json:1:" check-certificate "cert_$pos.json"
done

# ---- special files as inputs: refused at once, never read forever
mkfifo fifo.json
ln -s /dev/zero zero.json
expect 2 "ltlkit: error: fifo.json: is a FIFO (named pipe), not a regular file" compile --dfa fifo.json
expect 2 "ltlkit: error: zero.json: is a character device, not a regular file" compile --dfa zero.json
expect 2 "ltlkit: error: fifo.json: is a FIFO (named pipe), not a regular file" check-certificate fifo.json
expect 2 "ltlkit: error: zero.json: is a character device, not a regular file" generate --suite zero.json --out s1
[[ -e s1 ]] && fail "a refused suite left a folder"

# ---- stdout: every failed write is an error (exit 4), never a cut output with exit 0
if [[ -w /dev/full ]]; then
    timeout 300 "$bin" compile 'Y a' --alphabet a,b > /dev/full 2>err.txt
    rc=$?
    [[ $rc -eq 4 ]] || fail "compile > /dev/full: exit $rc, want 4"
    grep -q '^ltlkit: error: cannot write to standard output: No space left on device' err.txt || fail "/dev/full message: $(cat err.txt)"
    timeout 300 "$bin" classify 'Y a' --alphabet a,b --json > /dev/full 2>err.txt
    [[ $? -eq 4 ]] || fail "classify > /dev/full: not exit 4"
fi
timeout 300 "$bin" compile 'Y a' --alphabet a,b >&- 2>err.txt
rc=$?
[[ $rc -eq 4 ]] || fail "compile with stdout closed: exit $rc, want 4"
grep -q '^ltlkit: error: cannot write to standard output: it is closed' err.txt || fail "closed stdout message: $(cat err.txt)"
# a command that succeeds while stdout is closed and writes -o is still correct (nothing to stdout)
timeout 300 "$bin" compile 'Y a' --alphabet a,b -o closed.json >&- 2>err.txt || fail "compile -o with stdout closed: $(cat err.txt)"
[[ -s closed.json ]] || fail "compile -o with stdout closed wrote nothing"

# ---- -o: a symbolic link is written through, a character device or FIFO written into, never replaced
echo old > target.json
ln -s target.json link.json
"$bin" compile 'Y a' --alphabet a,b -o link.json 2>err.txt || fail "-o link: $(cat err.txt)"
[[ -L link.json ]] || fail "-o replaced the symbolic link"
grep -q 'alphabet: a b' target.json || fail "-o did not write through the link"
ln -s missing.json dangling.json
expect 4 "ltlkit: error: dangling.json: is a symbolic link to a file that does not exist" compile 'Y a' --alphabet a,b -o dangling.json
"$bin" compile 'Y a' --alphabet a,b -o /dev/stdout > via_stdout.json 2>err.txt || fail "-o /dev/stdout: $(cat err.txt)"
grep -q 'alphabet: a b' via_stdout.json || fail "-o /dev/stdout wrote nothing"
echo first > appended.txt
"$bin" compile 'Y a' --alphabet a,b -o /dev/stdout >> appended.txt 2>err.txt || fail "-o /dev/stdout >>: $(cat err.txt)"
[[ $(head -n 1 appended.txt) == first ]] && grep -q 'alphabet: a b' appended.txt || fail "-o /dev/stdout >> FILE did not append"
"$bin" compile 'Y a' --alphabet a,b -o /dev/stdout 2>err.txt | cat > piped.json
grep -q 'alphabet: a b' piped.json || fail "-o /dev/stdout into a pipe: $(cat err.txt)"
if mknod mynull c 1 3 2>/dev/null; then  # a private /dev/null (root): never turned into a regular file
    "$bin" compile 'Y a' --alphabet a,b -o mynull 2>err.txt || fail "-o NULL-DEVICE: $(cat err.txt)"
    [[ -c mynull ]] || fail "-o replaced a character device by a regular file"
    rm -f mynull
fi
# The reader is this shell (fd 7, opened read-write so that the open does not wait for a writer):
# it exists before compile starts, with no delay to guess. Then a read-only end takes over and the
# read-write one is closed, so the reader sees the end of what compile wrote.
exec 7<>fifo.json
"$bin" compile 'Y a' --alphabet a,b -o fifo.json 2>err.txt || fail "-o FIFO with a reader: $(cat err.txt)"
exec 8<fifo.json 7>&-
timeout 300 cat <&8 > from_fifo.json
exec 8<&-
[[ -p fifo.json ]] || fail "-o replaced a FIFO"
grep -q 'alphabet: a b' from_fifo.json || fail "-o FIFO: the reader got nothing"
expect 4 "ltlkit: error: fifo.json: cannot open a FIFO (named pipe) for writing: no process reads it" compile 'Y a' --alphabet a,b -o fifo.json
mkdir certs && ln -s /dev/null certs/definite.json  # --certificates writes through the same writer
"$bin" classify 'Y a' --alphabet a,b --certificates certs > /dev/null 2>err.txt || fail "classify --certificates: $(cat err.txt)"
[[ -L certs/definite.json && -c /dev/null ]] || fail "--certificates replaced a link to /dev/null"

# ---- locks never follow a symbolic link, and only a regular file is a lock
echo precious > victim.txt
mkdir locked && ln -s ../victim.txt locked/.lock
expect 2 "ltlkit: error: locked/.lock: is a symbolic link" generate 'Y a' --alphabet a,b --out locked --per-length 4 --test-lengths 5:6
[[ $(cat victim.txt) == precious ]] || fail "the lock's symbolic link was followed: victim.txt now holds '$(cat victim.txt)'"
mkdir fifolock && mkfifo fifolock/.lock
expect 2 "ltlkit: error: fifolock/.lock: is not a regular file" generate 'Y a' --alphabet a,b --out fifolock --per-length 4 --test-lengths 5:6

# ---- numbers that would wrap are refused in our words
expect 2 "ltlkit: error: bad length range '1:4294967336': a length is at most 2147483647" generate 'Y a' --alphabet a,b --out w1 --train-lengths 1:4294967336
expect 2 "ltlkit: error: bad length range '4294967337:4294967341': a length is at most 2147483647" generate 'Y a' --alphabet a,b --out w2 --test-lengths 4294967337:4294967341
for v in nan 0x1p3 1e-400 inf -1 1e999; do
    expect 2 "ltlkit: error: --window-time: " classify 'Y a' --alphabet a,b --window-time "$v"
    grep -q 'Could not convert' err.txt && fail "--window-time $v: CLI11's words"
done
expect 2 "ltlkit: error: --max-k: " classify 'Y a' --alphabet a,b --max-k 4294967297
expect 2 "ltlkit: error: 1:4: expected a window k >= 1 (decimal) after 'Y<=', found '0x10'" compile 'Y<=0x10 a' --alphabet a,b
expect 2 "ltlkit: error: 1:4: expected a window k >= 1 (decimal) after 'Y<=', found '3b'" compile 'Y<=3b' --alphabet a,b

# ---- names and symbols
expect 2 "ltlkit: error: alphabet 'a,b\\xff': symbol 'b\\xff' is not valid UTF-8" compile 'Y a' --alphabet "$(printf 'a,b\xff')"
long=$(printf 'n%.0s' $(seq 300))
printf '%s\ta,b\tformula\tY a\n' "$long" > long.suite
expect 2 "ltlkit: error: long.suite:1:1: language name of 300 bytes; at most 200" generate --suite long.suite --out longout
[[ -e longout ]] && fail "a refused suite left a folder"
printf '{"alphabet": ["a"], "initial": 0, "accepting": [], "transitions": [[1E99999]]}' > big_number.json
expect 2 "ltlkit: error: big_number.json:1:" compile --dfa big_number.json
grep -q 'malformed JSON' err.txt || fail "number overflow: $(cat err.txt)"

# ---- certificates: an unknown kind is bad input, a flipped member does not hold
"$bin" classify 'Y a' --alphabet a,b,c --max-k 2 --certificates certs2 > /dev/null 2>&1 || fail "classify --certificates certs2"
python3 - certs2 <<'EOF'
import json, sys, os
d = sys.argv[1]
for name in sorted(os.listdir(d)):
    c = json.load(open(os.path.join(d, name)))
    if c.get("member") is False and c.get("kind", "").endswith("_family"):
        c["member"] = True
        json.dump(c, open("flipped.json", "w"))
        break
c = json.load(open(os.path.join(d, "definite.json")))
c["kind"] = "bogus"
json.dump(c, open("bogus.json", "w"))
EOF
expect 2 "ltlkit: error: bogus.json: unknown certificate kind 'bogus'" check-certificate bogus.json
if [[ -f flipped.json ]]; then
    timeout 300 "$bin" check-certificate flipped.json > out.txt 2>err.txt
    rc=$?
    [[ $rc -eq 1 ]] || fail "flipped member: exit $rc, want 1 ($(cat err.txt))"
    grep -q '^does not hold: ' out.txt || fail "flipped member: $(cat out.txt)"
else
    fail "no family certificate to flip"
fi

# ---- constructions bounded in work (time and memory), not only in states; the error names --max-work
deep_y=$(python3 -c 'print("Y " * 10000 + "a")')
expect 3 "ltlkit: error: the monitor of the formula needs more than 100000000 steps of work" compile "$deep_y" --alphabet a,b --max-work 100000000
grep -q 'raise --max-work' err.txt || fail "deep Y: the message does not name --max-work"
stars=$(python3 -c 'print("a*" * 10000)')
expect 3 "ltlkit: error: the derivatives of the regular expression need more than 100000000 steps" compile --regex "$stars" --alphabet a,b --max-work 100000000
expect 3 "ltlkit: error: the monitor of the formula needs more than 100 steps" compile 'Y Y Y Y a' --alphabet a,b --max-work 100
"$bin" compile 'Y Y Y Y a' --alphabet a,b --max-work 0 > /dev/null || fail "--max-work 0 (no limit)"
python3 -c '
import json; n = 100000
print(json.dumps({"alphabet": ["s%d" % i for i in range(n)], "initial": 0, "accepting": [0], "transitions": [[0] * n]}))' > wide_alphabet.json
# Linear in the alphabet: bounded in CPU seconds (user + system), which a loaded machine does not
# inflate as it does wall time; the timeout only turns a hang into a failure.
TIMEFORMAT='%U %S'
{ time timeout 600 "$bin" compile --dfa wide_alphabet.json --format text > /dev/null 2>err.txt || fail "10^5-symbol alphabet: $(head -c 200 err.txt)"; } 2> cpu.txt
unset TIMEFORMAT
cpu=$(awk '{printf "%d", $1 + $2}' cpu.txt)
(( cpu < 20 )) || fail "10^5-symbol alphabet took $cpu s of CPU"
# out of memory under ulimit -v: one line, exit 3, no advice to raise "no limit"
(ulimit -v 300000; timeout 600 "$bin" compile "$deep_y" --alphabet a,b --max-work 0 > /dev/null 2>err.txt; echo $? > rc.txt)
if [[ $(cat rc.txt) -eq 3 ]]; then
    grep -q '^ltlkit: error: out of memory' err.txt || fail "ulimit -v: $(head -c 200 err.txt)"
    grep -q 'raise no limit' err.txt && fail "ulimit -v: says 'raise no limit'"
fi

# ---- neural: train's output folder, wrapped lengths, fewer steps, arch names, busy runs
if [[ -x $neural ]]; then
    small=(--alphabet a,b --arch local-1 --layers 1 --d-model 16 --heads 1 --per-length 4 --test-lengths 41:42 --device cpu --threads 1)
    nodm=(--alphabet a,b --arch local-1 --layers 1 --heads 1 --per-length 4 --test-lengths 41:42 --device cpu --threads 1)
    mkdir user && echo mine > user/result.json && echo mine > user/metrics.jsonl && echo mine > user/notes.tmp.abc123
    expect 2 "ltlkit: error: user: not empty and holds no ltlkit run" train 'Y a' "${small[@]}" --steps 2 --out user
    for f in result.json metrics.jsonl notes.tmp.abc123; do [[ $(cat user/$f) == mine ]] || fail "train touched user/$f"; done
    expect 2 "ltlkit: error: --train-lengths: bad length range '1:4294967336'" train 'Y a' "${small[@]}" --steps 2 --out wl --train-lengths 1:4294967336
    expect 2 "ltlkit: error: --d-model: '2147483648' is out of range" train 'Y a' "${nodm[@]}" --steps 2 --out dm --d-model 2147483648
    expect 2 "ltlkit: error: architecture 'hybrid-01'" train 'Y a' --alphabet a,b --arch hybrid-01 --out h01
    timeout 600 "$bin" train 'Y a' "${small[@]}" --steps 4 --checkpoint-every 2 --out r4 > /dev/null 2>err.txt || fail "train r4: $(tail -n 2 err.txt)"
    echo keep > r4/notes.tmp.abc123
    expect 2 "ltlkit: error: r4 holds a checkpoint at step 4, beyond --steps 2" train 'Y a' "${small[@]}" --steps 2 --out r4
    [[ -f r4/notes.tmp.abc123 ]] || fail "train removed a file it did not create"
    mkfifo fifo.pt && mkdir rf && cp r4/run.json rf/ && ln -s ../fifo.pt rf/checkpoint.pt
    expect 2 "ltlkit: error: rf/checkpoint.pt: is a FIFO (named pipe), not a regular file" eval rf
    rm rf/checkpoint.pt && ln -s /dev/zero rf/checkpoint.pt
    expect 2 "ltlkit: error: rf/checkpoint.pt: is a character device, not a regular file" eval rf
    # eval of a run that train holds: "in use", as docs/ERRORS.md defines for a busy folder (exit 2)
    # (the holder keeps the lock until the test removes `held`, however long eval takes to start)
    python3 -c 'import fcntl, os, sys, time; fd = os.open("r4/.lock", os.O_RDWR); fcntl.flock(fd, fcntl.LOCK_EX); os.write(fd, b"ltlkit train, pid 1, since now\n"); open("held", "w").close()
for _ in range(60000):
    if not os.path.exists("held"): break
    time.sleep(0.01)' &
    holder=$!
    wait_until 300 test -f held || fail "the lock holder did not start within 300 s"
    expect 2 "ltlkit: error: r4 is in use by another process (ltlkit train, pid 1, since now)" eval r4
    rm -f held; wait "$holder" 2>/dev/null
    # a signal once train has started (held after taking its folder's lock: the lock gate of
    # docs/DURABILITY.md "Test gates") prints the interrupt message
    rm -f sig-gate sig-gate.reached
    LTLKIT_TEST_GATE_LOCKED=$PWD/sig-gate timeout 600 "$bin" train 'Y a' "${small[@]}" --steps 2000 --out sig > /dev/null 2>err.txt &
    pid=$!
    wait_until 300 test -e sig-gate.reached || fail "train did not take its lock within 300 s"
    kill -INT "$pid"; wait "$pid"
    rc=$?
    [[ $rc -eq 130 ]] || fail "SIGINT at start: exit $rc, want 130"
    grep -q '^ltlkit: interrupted: ' err.txt || fail "SIGINT at start: no message: $(cat err.txt)"
fi

if [[ $fails -gt 0 ]]; then
    echo "hostile_input: $fails failures"
    exit 1
fi
echo "hostile_input: all passed"
