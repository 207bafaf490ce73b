#!/usr/bin/env bash
# Suites of the prediction classes through the CLI (docs/SUBREGULAR.md §5b): every stratum of
# --list-strata drawn at 2 letters, each drawn DFA classified again by `classify --json` (which
# reads only the DFA file) and checked against the constraints the suite header records; the same
# seed gives the same files; --class/--not combinations; one-line errors with exit 2 for unknown
# names, bad windows and contradictions, exit 3 at --max-draws; generate reads a drawn suite.
# Usage: bash prediction_suites.sh LTLKIT_BIN SOURCE_DIR
set -u
bin=$1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf p1 p2 gen strata.json out.json err.txt

"$bin" suite --list-strata --json >strata.json 2>err.txt || fail "--list-strata --json exited $?: $(cat err.txt)"
"$bin" suite --list-strata >strata.txt 2>err.txt || fail "--list-strata exited $?"
strata=$(python3 -c 'import json,sys; print(" ".join(s["name"] for s in json.load(open(sys.argv[1]))))' strata.json) ||
    fail "--list-strata --json is not a JSON array of strata"
for s in rt_definite rt_not_definite definite_not_rt lrt_only none definite_not_local2 lrt_only_not_hybrid2; do
    [[ " $strata " == *" $s "* ]] || fail "stratum $s missing from --list-strata"
    grep -q "^$s\$" strata.txt || fail "stratum $s missing from the text listing"
done

# The suite header and the DFA files against an independent classification of each file.
check_suite() {  # SUITE JSON_OUT
    python3 - "$1" "$2" "$bin" <<'PY' || fail "suite $1 does not meet its constraints"
import json, os, subprocess, sys
suite, out, binary = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3]
head = {}
for line in open(suite, encoding="utf-8"):
    if line.startswith("# ") and ": " in line and line[2:].split(":")[0] in ("constraints", "draws", "rejected_unknown"):
        key, value = line[2:].rstrip("\n").split(": ", 1)
        head[key] = json.loads(value)
assert head["constraints"] == out["constraints"], (head, out)
assert head["draws"] == out["draws"] >= out["count"] and head["rejected_unknown"] == out["rejected_unknown"], (head, out)
lines = [l.rstrip("\n").split("\t") for l in open(suite, encoding="utf-8") if l.strip() and not l.startswith("#")]
assert len(lines) == out["count"] == len(out["languages"]), lines
seen = set()
for (name, alphabet, kind, path), lang in zip(lines, out["languages"]):
    assert lang["name"] == name and kind == ("formula" if out["from"] == "formulas" else "dfa"), (name, lang)
    if kind == "formula":
        assert path == lang["formula"], (path, lang)
        equal = subprocess.run([binary, "equiv", "--alphabet", alphabet, "formula:" + path,
                                "dfa:" + os.path.join(os.path.dirname(suite) or ".", lang["file"])],
                               capture_output=True, text=True)
        assert equal.returncode == 0, (path, equal.stdout, equal.stderr)
        path = lang["file"]
    f = os.path.join(os.path.dirname(suite) or ".", path)
    seen.add(open(f).read())
    c = json.loads(subprocess.run([binary, "classify", "--dfa", f, "--max-k", str(max(out["max_k"], 1)), "--json"],
                                  check=True, capture_output=True, text=True).stdout)
    assert out["min_states"] <= c["states"] <= out["max_states"], (f, c["states"])
    for con in out["constraints"]:
        cls = con["class"]
        if ":" in cls:
            fam, k = cls.split(":")
            got = c[fam][k]
            assert got in ("yes", "no"), (f, cls, got)
            got = got == "yes"
        elif cls in c["classes"]:
            got = c["classes"][cls]
        else:
            got = c["subregular"][cls]["member"]
        assert got == con["member"], (f, cls, got, con)
        assert lang["answers"][cls] == ("yes" if con["member"] else "no"), (f, lang)
    for arch, p in out["predictions"].items():
        assert c["predictions"][arch] == p, (f, arch, c["predictions"][arch], p)
assert len(seen) == len(lines), "a language drawn twice"
PY
}

mkdir -p p1 p2
for s in $strata; do
    "$bin" suite --stratum "$s" --alphabet a,b --count 2 --seed 5 --min-states 3 --max-states 6 --out "p1/$s.suite" --json \
        >out.json 2>err.txt || { fail "--stratum $s exited $?: $(cat err.txt)"; continue; }
    check_suite "p1/$s.suite" out.json
done
"$bin" suite --stratum lrt_only --alphabet a,b --count 2 --seed 5 --min-states 3 --max-states 6 --out p2/lrt_only.suite \
    >/dev/null 2>err.txt || fail "--stratum lrt_only (again) exited $?"
diff -r p1/lrt_only.suite p2/lrt_only.suite >/dev/null && diff -r p1/lrt_only-dfa p2/lrt_only-dfa >/dev/null ||
    fail "the same seed gave another suite"
grep -q '^# stratum: lrt_only$' p1/lrt_only.suite || fail "the header does not name the stratum"
grep -q '^# rejected_unknown: [0-9]*$' p1/lrt_only.suite || fail "the header does not count rejected_unknown"

# --class / --not, a subregular class among them, a window class with --max-k, and --class none.
"$bin" suite --class r_trivial --not definite --not PT --alphabet a,b,c --count 2 --seed 2 --out p1/mix.suite --json \
    >out.json 2>err.txt || fail "--class r_trivial --not definite --not PT exited $?: $(cat err.txt)"
check_suite p1/mix.suite out.json
"$bin" suite --class definite --not local_k:3 --max-k 3 --count 2 --seed 2 --out p1/w3.suite --json >out.json 2>err.txt ||
    fail "--not local_k:3 exited $?: $(cat err.txt)"
check_suite p1/w3.suite out.json
"$bin" suite --class none --count 2 --out p1/none.suite --json >out.json 2>err.txt || fail "--class none exited $?"
check_suite p1/none.suite out.json
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["constraints"]==[{"class":"locally_r_trivial","member":False}], j' out.json ||
    fail "--class none is not --not locally_r_trivial"

# Formula suites: formula lines whose languages meet the constraints; the fragment's class is a fact.
"$bin" suite --from formulas --fragment 'P,Y<=2' --not local_k:2 --not r_trivial --count 2 --seed 4 --min-states 3 \
    --max-states 8 --out p1/f.suite --json >out.json 2>err.txt || fail "--from formulas exited $?: $(cat err.txt)"
check_suite p1/f.suite out.json
[[ $(grep -c $'\tformula\t' p1/f.suite) -eq 2 ]] || fail "no formula lines: $(cat p1/f.suite)"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["predictions"]["hybrid-2"]=="recognizes" and j["fragment"]=="LTL[P,Y<=2]", j' out.json ||
    fail "the fragment's class is not among the predictions"

# Errors: one line, exit 2 (bad input) or 3 (--max-draws).
expect() {  # CODE PATTERN ARGS...
    local code=$1 pat=$2
    shift 2
    "$bin" suite "$@" --out p1/bad.suite >/dev/null 2>err.txt
    local rc=$?
    [[ $rc -eq $code ]] || fail "suite $* exited $rc, not $code: $(cat err.txt)"
    [[ $(wc -l <err.txt) -eq 1 ]] || fail "suite $*: not one line: $(cat err.txt)"
    grep -q -- "$pat" err.txt || fail "suite $*: no '$pat' in: $(cat err.txt)"
}
expect 2 "unknown class 'definit'" --class definit
expect 2 "unknown class 'rtrivial'" --not rtrivial
expect 2 "must be an integer 2..64" --class local_k:1
expect 2 "must be an integer 2..64" --not hybrid_k:two
expect 2 "contradictory constraints" --class definite --not locally_r_trivial
expect 2 "contradictory constraints" --class local_k:2 --not definite
expect 2 "contradictory constraints" --stratum rt_not_definite --class definite
expect 2 "contradictory constraints" --class r_trivial --not hybrid_k:2
expect 2 "below the window 3" --class local_k:3 --max-k 2
expect 2 "unknown stratum 'nope'" --stratum nope
expect 2 "one subregular class" --class definite --k 2
expect 2 "cannot be negated" --not none
expect 2 "contradictory constraints" --from formulas --fragment Y --not definite
expect 2 "unknown fragment 'Q'" --from formulas --fragment Q
expect 2 "needs --fragment" --from formulas
expect 3 "after 3 draws" --stratum lrt_only_not_hybrid2 --count 50 --max-draws 3
[[ -e p1/bad.suite ]] && fail "a refused suite was written"

# A drawn suite is read by generate.
"$bin" generate --suite p1/definite_not_rt.suite --out gen --per-length 2 --boundary-per-length 1 --train-lengths 1:3 \
    --test-lengths 4:5 --no-adversarial --quiet >/dev/null 2>err.txt || fail "generate --suite exited $?: $(cat err.txt)"

[[ $fails -eq 0 ]] || exit 1
echo "prediction_suites: ok"
