#!/usr/bin/env bash
# Unknown window answers: neither member nor non-member. `classify --json` and the certificate
# files write "member": null with the bound that stopped the question; `check-certificate` reads
# them (never "bad input") and echoes the null, its exit status agreeing with "holds".
# Usage: bash unknown_certificates.sh LTLKIT_BIN SOURCE_DIR
set -u
bin=$1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf certs out.json

# A window budget far too small for hybrid_k:2 of this locally R-trivial language.
"$bin" classify 'P(a & Y(b & P(c & Y a)))' --max-k 2 --window-time 0.001 --certificates certs --json >out.json 2>err.txt ||
    fail "classify exited $?: $(cat err.txt)"
python3 - out.json certs/hybrid_k-2.json <<'PY' || fail "unknown answer not written as member null"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["hybrid_k"]["2"] == "unknown", j["hybrid_k"]
c = j["certificates"]["hybrid_k:2"]
assert "member" in c and c["member"] is None, c
assert c["kind"] == "search_exhausted", c["kind"]
assert c["budget"]["option"] == "--window-time", c.get("budget")
f = json.load(open(sys.argv[2]))
assert "member" in f and f["member"] is None, f
PY
"$bin" check-certificate --json certs/hybrid_k-2.json >check.json 2>err.txt
rc=$?
[[ $rc -eq 0 || $rc -eq 1 ]] || fail "check-certificate on an unknown exited $rc: $(cat err.txt)"
python3 - check.json $rc <<'PY' || fail "check-certificate --json on an unknown"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["class"] == "hybrid_k:2" and j["member"] is None, j
assert j["holds"] == (sys.argv[2] == "0"), j
assert j["explanation"], j
PY

# A certificate that says null for a class decided without windows is malformed: bad input.
python3 - certs/definite.json > null_definite.json <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["member"] = None
print(json.dumps(c))
PY
"$bin" check-certificate null_definite.json >/dev/null 2>err.txt
rc=$?
[[ $rc -eq 2 ]] || fail "a null member on a class certificate: exit $rc, expected 2 (bad input)"
grep -q '^ltlkit: error: .*"member"' err.txt || fail "the error does not name \"member\": $(head -1 err.txt)"

[[ $fails -eq 0 ]] && echo "unknown_certificates: all passed"
exit $fails
