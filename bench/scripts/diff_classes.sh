#!/usr/bin/env bash
# Differential check of what diff_symbolic.sh does not run, between two ltlkit binaries: `suite`
# (strata, prediction-class constraints, subregular classes, bad class names), and
# `check-certificate` on certificates tampered with where the class vocabulary is read (the class,
# the identity of a violation, "by", "in" / "not_in", the kind against the class). Compares stdout,
# stderr and exit codes byte for byte.
#
#   bench/scripts/diff_classes.sh OLD_LTLKIT NEW_LTLKIT
#
# Exit 0 when every output agrees, 1 with the differing cases listed.
set -u
old=$1 new=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0 bad=0

compare() {  # name, then the ltlkit arguments (the string OUT is replaced by a per-side folder)
    local name=$1
    shift
    n=$((n + 1))
    for side in old new; do
        local bin=$old
        [ $side = new ] && bin=$new
        local out=$work/$side/$n
        mkdir -p "$out"
        local args=()
        for a in "$@"; do args+=("${a//OUT/$out}"); done
        "$bin" "${args[@]}" >"$out/stdout" 2>"$out/stderr"
        echo "rc=$?" >>"$out/stdout"
        sed -i "s#$out#OUT#g" "$out/stdout" "$out/stderr"
        rm -rf "$out/s.suite" "$out/s.suite-dfa"
    done
    if ! diff -r "$work/old/$n" "$work/new/$n" >/dev/null; then
        bad=$((bad + 1))
        echo "DIFFERS: $name"
        diff -r "$work/old/$n" "$work/new/$n" | head -8
    fi
}

compare "strata" suite --list-strata --json
compare "strata text" suite --list-strata
for st in rt_definite rt_not_definite definite_not_rt lrt_only none definite_local2 definite_not_local2 lrt_only_hybrid2; do
    compare "stratum $st" suite --stratum "$st" --count 3 --seed 5 --json --out OUT/s.suite
done
compare "class+not" suite --class r_trivial --not definite --count 4 --json --out OUT/s.suite
compare "window class" suite --class local_k:3 --count 3 --alphabet a,b --json --out OUT/s.suite
compare "hybrid not" suite --class locally_r_trivial --not hybrid_k:2 --count 3 --json --out OUT/s.suite
compare "mixed subregular" suite --class SL --not definite --count 3 --json --out OUT/s.suite
compare "fragment" suite --from formulas --fragment 'P,Y<=2' --not r_trivial --count 3 --json --out OUT/s.suite
for c in finite cofinite SL SP LT PT LTT TSL DA aperiodic_commutative; do
    compare "subregular $c" suite --class "$c" --count 3 --seed 3 --json --out OUT/s.suite
done
compare "subregular k" suite --class LTT --k 2 --t 1 --count 2 --json --out OUT/s.suite
compare "bad --t" suite --class SL --t 2 --out OUT/s.suite
compare "bad --k" suite --class DA --k 2 --out OUT/s.suite
for bad_name in definit local_k:1 local_k: hybrid_k:x local_k:65 local_k:2x local_k:0064 Definite none; do
    compare "bad class $bad_name" suite --class "$bad_name" --out OUT/s.suite
    compare "bad not $bad_name" suite --not "$bad_name" --out OUT/s.suite
done
compare "contradiction" suite --class local_k:4 --not local_k:2 --out OUT/s.suite
compare "contradiction 2" suite --class r_trivial --class definite --not piecewise_testable --out OUT/s.suite

# Certificates of a few languages, then tampered copies.
mkdir -p "$work/certs"
i=0
for f in 'Y a' 'P a' '(a S b) & Y a' 'Y Y a | P b' 'H (a -> Y b)' 'a S (b & Y c)'; do
    i=$((i + 1))
    "$old" classify "$f" --alphabet a,b,c --window-time 0 --window-memory 0 --certificates "$work/certs/$i" >/dev/null 2>&1
done
python3 - "$work/certs" "$work/tampered" <<'PY'
import json, os, sys
src, dst = sys.argv[1], sys.argv[2]
os.makedirs(dst, exist_ok=True)
def put(name, j):
    with open(os.path.join(dst, name), "w") as f: json.dump(j, f, indent=2)
classes = ["definite", "r_trivial", "locally_r_trivial", "locally_testable", "piecewise_testable", "star_free",
           "reverse_definite", "generalized_definite", "l_trivial", "SL", "local_k:2", "hybrid_k:3", "local_k:1",
           "local_k:0", "local_k:xyz", "hybrid_k:", "nonsense", "local_k:00002"]
identities = ["x_e", "e_x", "e_x_e", "r_class", "l_class", "r_class_omega", "aperiodic", "local_r", "local_idempotent",
              "local_commutative", "nonsense"]
for d in sorted(os.listdir(src)):
    for c in sorted(os.listdir(os.path.join(src, d))):
        j = json.load(open(os.path.join(src, d, c)))
        base = d + "-" + c[:-5]
        put(base + ".json", j)
        if j.get("kind") == "subregular": continue
        for k in classes:
            t = dict(j); t["class"] = k; put(base + "-class-" + k.replace(":", "_") + ".json", t)
        t = dict(j); t["member"] = not j["member"] if isinstance(j["member"], bool) else True; put(base + "-flip.json", t)
        t = dict(j); t["member"] = None; put(base + "-null.json", t)
        if "identity" in j:
            for i in identities:
                t = dict(j); t["identity"] = i; put(base + "-identity-" + i + ".json", t)
        if "by" in j:
            for k in classes:
                t = dict(j); t["by"] = k; put(base + "-by-" + k.replace(":", "_") + ".json", t)
        if "in" in j:
            for k in classes:
                t = dict(j); t["in"] = k; put(base + "-in-" + k.replace(":", "_") + ".json", t)
                t = dict(j); t["not_in"] = k; put(base + "-notin-" + k.replace(":", "_") + ".json", t)
        for kind in ["suffix_family", "r_family", "lrt_family", "implied", "excluded", "identity_violation", "formula"]:
            t = dict(j); t["kind"] = kind; put(base + "-kind-" + kind + ".json", t)
PY
for c in "$work"/tampered/*.json; do
    compare "check $(basename "$c")" check-certificate "$c" --json
done
echo "$n cases, $bad differ"
[ $bad = 0 ]
