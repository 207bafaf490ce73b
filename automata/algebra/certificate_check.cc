// The independent checker behind `ltlkit check-certificate` (docs/CLASSES.md §3): the class
// certificates of certificate_to_json (automata/certificate.hh) re-verified here, the window
// certificates by window_certificate_check.cc, the subregular ones by subregular_check.cc
// (docs/SUBREGULAR.md).
#include "automata/algebra/certificate_check.hh"

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

#include "automata/algebra/certificate_json.hh"
#include "automata/algebra/class_support.hh"
#include "automata/algebra/classes.hh"
#include "automata/algebra/subregular.hh"
#include "automata/algebra/windows.hh"
#include "automata/algorithms.hh"
#include "automata/dfa_json.hh"
#include "base/json.hh"
#include "automata/monitor.hh"
#include "ltl/fragment.hh"
#include "ltl/parser.hh"

namespace ltlkit::automata::algebra {

// ---------------------------------------------------------------- certificate checker

namespace {

// A field the reader left untyped, as written when it is a string ("" otherwise).
std::string untyped_string(const Certificate& c, const char* key) {
    return c.untyped.contains(key) && c.untyped[key].is_string() ? c.untyped[key].get<std::string>() : std::string();
}

using T = std::vector<State>;

T compose(const T& a, const T& b) {  // a then b
    T c(a.size());
    for (std::size_t q = 0; q < a.size(); ++q) c[q] = b[a[q]];
    return c;
}

// The idempotent power t^ω = t^m for any m that is at least every tail length and a multiple of
// every cycle length: from q, the run enters its cycle (length c) after τ steps, and t^m(q) lies
// (m − τ) mod c = (−τ) mod c steps past the entry. O(n) amortized (each state's tail walk is
// shared through the memo of states already placed).
std::optional<T> omega_of(const T& t) {
    const std::size_t n = t.size();
    std::vector<std::int64_t> cyc_len(n, 0), cyc_pos(n, -1);  // for cycle states: length and position
    std::vector<std::vector<State>> cycles;
    std::vector<std::uint32_t> cycle_of(n, 0);
    std::vector<std::uint8_t> seen(n, 0);
    for (std::size_t s0 = 0; s0 < n; ++s0) {
        std::vector<State> path;
        State x = State(s0);
        while (!seen[x]) seen[x] = 1, path.push_back(x), x = t[x];
        auto at = std::find(path.begin(), path.end(), x);
        if (at != path.end()) {  // a new cycle from x
            std::vector<State> cyc(at, path.end());
            for (std::size_t i = 0; i < cyc.size(); ++i)
                cyc_pos[cyc[i]] = std::int64_t(i), cyc_len[cyc[i]] = std::int64_t(cyc.size()),
                cycle_of[cyc[i]] = std::uint32_t(cycles.size());
            cycles.push_back(std::move(cyc));
        }
    }
    // tail length and entry point per state (memoized along the run)
    std::vector<std::int64_t> tail(n, -1);
    std::vector<State> entry(n);
    for (std::size_t q = 0; q < n; ++q)
        if (cyc_pos[q] >= 0) tail[q] = 0, entry[q] = State(q);
    T e(n);
    for (std::size_t s0 = 0; s0 < n; ++s0) {
        std::vector<State> path;
        State x = State(s0);
        while (tail[x] < 0) path.push_back(x), x = t[x];
        for (auto it = path.rbegin(); it != path.rend(); ++it) tail[*it] = tail[t[*it]] + 1, entry[*it] = entry[t[*it]];
    }
    for (std::size_t q = 0; q < n; ++q) {
        const State en = entry[q];
        const std::int64_t c = cyc_len[en];
        const std::int64_t shift = ((-tail[q]) % c + c) % c;
        e[q] = cycles[cycle_of[en]][std::size_t((cyc_pos[en] + shift) % c)];
    }
    return e;
}

struct Checker {
    const Dfa& d;
    std::string* why;
    bool say(const std::string& s, bool result) {
        if (why) *why = s;
        return result;
    }
};

// The fragment kinds a member formula of a class may use: none, or the row's fragment.
bool formula_fits(const ClassRow& row, ltl::Formula f) {
    if (!row.formula_fragment) return false;
    auto k = ltl::fragment_of(f).kind;
    return k == ltl::FragmentKind::None || k == *row.formula_fragment;
}

// Re-decides a class by every route available (DFA criterion, and the semigroup identity when the
// semigroup has at most 50,000 elements); all must agree with `member`.
Result<bool> redecide(const Dfa& d, const ClassRow* row, const std::string& cls, bool member, std::string* why) {
    if (!row) return make_error("unknown class '" + cls + "'");
    std::string routes;
    if (row->by_dfa) {
        DfaAnalysis A(d);
        if (row->by_dfa(A).member != member) {
            if (why) *why = "the DFA criterion says the language is " + std::string(member ? "not " : "") + "in " + cls;
            return false;
        }
        routes = "the DFA criterion";
    }
    auto S = detail::classify_semigroup(d, 50'000);
    if (S) {
        if (row->by_semigroup(**S).member != member) {
            if (why) *why = "the semigroup identity says the language is " + std::string(member ? "not " : "") + "in " + cls;
            return false;
        }
        routes += routes.empty() ? "the semigroup identity" : " and the semigroup identity";
    }
    if (routes.empty()) {
        if (why) *why = "the semigroup is too large to re-check " + cls;
        return false;
    }
    if (why) *why = "re-decided by " + routes + ": " + (member ? "member" : "not a member") + " of " + cls;
    return true;
}

}  // namespace

Result<bool> check_certificate_json(const std::string& text, std::string* explanation) {
    auto parsed = parse_json<nlohmann::json>(text);
    if (!parsed.ok()) return parsed.error();
    const nlohmann::json& raw = *parsed;
    // Subregular certificates have their own format (docs/SUBREGULAR.md); every other one is
    // certificate_to_json's, read by its typed reader.
    if (raw.is_object() && raw.contains("class") && raw["class"].is_string() && raw.contains("kind") &&
        raw["kind"] == "subregular" && is_subregular_class(raw["class"].get<std::string>()))
        return check_subregular_certificate(raw, explanation);
    auto read = certificate_from_json(text);
    if (!read.ok()) return read.error();
    const Certificate& cert = read->certificate;
    const std::string& cls = read->class_text;  // as written, in every verdict
    const std::string kind = to_string(cert.kind);
    const CertificateKind K = cert.kind;
    // A window stem with any number: the window checker judges the number.
    const std::optional<ClassKind> stem = window_stem_of(cls);
    const bool window = stem.has_value();
    if (window && K == CertificateKind::SearchExhausted) return check_window_certificate(*read, explanation);
    if (cert.unknown) return make_error("\"member\" must be a boolean");
    const bool member = cert.member;
    const bool mine = K == CertificateKind::SuffixFamily || K == CertificateKind::LrtFamily;
    if (window && !mine) return check_window_certificate(*read, explanation);
    const Dfa& d = read->dfa;
    Checker C{d, explanation};
    if (!is_minimal(d)) return C.say("the embedded DFA is not minimal", false);
    // The table class whose refutations refute the class: itself, or the class that includes the
    // window classes (LTL[Y<=k] ⊆ LTL[Y], LTL[P,Y<=k] ⊆ LTL[P,Y]).
    const ClassRow* row = window ? nullptr : read->class_id ? find_class(*read->class_id) : nullptr;
    if (!window && !row) return make_error("unknown class '" + cls + "'");
    const ClassRow* base_row = window ? find_class(*stem == ClassKind::LocalK ? ClassKind::Definite : ClassKind::LocallyRTrivial) : row;
    const std::string base = to_string(base_row->id());
    if (K == CertificateKind::Implied) {
        const auto* fields = std::get_if<ImpliedFields>(&cert.fields);
        // "by" as written when it names no class (the reader left it untyped).
        const std::string by = fields ? to_string(fields->by) : untyped_string(cert, "by");
        if (!fields && by.empty()) return make_error("an implied membership needs \"by\"");
        if (!member) return C.say("an inclusion proves membership, not its absence", false);
        if (window || !fields || !class_implies(fields->by, row->id()))
            return C.say(by + " is not known to be included in " + cls, false);
        const ClassId by_id = fields->by;
        const ClassRow* from = find_class(by_id);
        if (!from || !from->by_dfa) return C.say(by + " has no DFA criterion to re-check", false);
        DfaAnalysis A(d);
        if (!from->by_dfa(A).member) return C.say("the DFA criterion says the language is not in " + by, false);
        return C.say("the DFA criterion puts the language in " + by + ", which is included in " + cls, true);
    }
    if (K == CertificateKind::Excluded) {
        const auto* fields = std::get_if<ExcludedFields>(&cert.fields);
        const std::string in = fields ? to_string(fields->in) : untyped_string(cert, "in");
        const std::string not_in = fields ? to_string(fields->not_in) : untyped_string(cert, "not_in");
        if (!fields && (in.empty() || not_in.empty())) return make_error("an excluded membership needs \"in\" and \"not_in\"");
        if (member) return C.say("an exclusion proves non-membership, not membership", false);
        if (window || !fields || !class_excludes(fields->in, fields->not_in, row->id()))
            return C.say(in + " without " + not_in + " is not known to exclude " + cls, false);
        const ClassId in_id = fields->in, not_in_id = fields->not_in;
        const ClassRow* a = find_class(in_id);
        const ClassRow* b = find_class(not_in_id);
        if (!a || !b || !a->by_dfa || !b->by_dfa) return C.say("no DFA criteria to re-check " + in + " and " + not_in, false);
        DfaAnalysis A(d);
        if (!a->by_dfa(A).member) return C.say("the DFA criterion says the language is not in " + in, false);
        if (b->by_dfa(A).member) return C.say("the DFA criterion says the language is in " + not_in, false);
        return C.say("the DFA criteria put the language in " + in + " and not in " + not_in + ", which excludes " + cls, true);
    }

    // A word family refutes membership; with "member": true it claims what it cannot show.
    if (member && (K == CertificateKind::SuffixFamily || K == CertificateKind::RFamily || K == CertificateKind::LrtFamily))
        return C.say("a " + kind + " certificate refutes membership in " + cls + "; it cannot prove \"member\": true", false);
    if (member) {
        if (cert.formula) {
            auto f = ltl::parse_formula(*cert.formula);
            if (!f) return f.error();
            if (!formula_fits(*row, *f))
                return C.say("the formula is in " + ltl::fragment_of(*f).name() + ", not in the fragment of " + cls, false);
            auto alpha = formula_alphabet(*f, d.alphabet);
            if (!alpha) return C.say("the formula does not fit the DFA's alphabet: " + alpha.error().message, false);
            auto compiled = compile(*f, *alpha);
            if (!compiled) return compiled.error();
            if (auto w = distinguishing_word(minimize(*compiled), d))
                return C.say("the formula and the DFA differ on '" + format_word(d.alphabet, *w) + "'", false);
            return C.say("the formula (" + ltl::fragment_of(*f).name() + ") compiles to the embedded DFA's language", true);
        }
        return redecide(d, row, cls, true, explanation);
    }

    // Non-members.
    if (K == CertificateKind::SuffixFamily || K == CertificateKind::RFamily || K == CertificateKind::LrtFamily) {
        if (base_row->refuting_family != K) return C.say("a " + kind + " does not refute " + cls, false);
        if (!cert.family) return make_error("a word family certificate needs \"family\"");
        const WordFamily& f = *cert.family;
        auto has_marker = [](const Word& w) { return std::find(w.begin(), w.end(), WordFamily::kLoopMarker) != w.end(); };
        if (f.p.empty()) return C.say("the period p is empty", false);
        for (std::size_t r = std::max<std::size_t>(f.r_min, 1); r < std::max<std::size_t>(f.r_min, 1) + 6; ++r) {
            auto [u, v] = f.at(r);
            if (d.accepts(u) == d.accepts(v))
                return C.say("x·p^r·y and x·p^r·z agree on membership at r = " + std::to_string(r), false);
        }
        if (K == CertificateKind::SuffixFamily) {
            // Words x·p^r·y and x2·p^r·y share the suffix p^r·y; p loops at both states, so
            // membership differs for every r while no fixed suffix length separates them.
            if (!f.x2 || f.y != f.z || has_marker(f.p) || has_marker(f.y) || has_marker(*f.x2) || has_marker(f.x))
                return C.say("a suffix family needs x2, y = z and no loop markers", false);
            const State s1 = d.run(d.initial, f.x), s2 = d.run(d.initial, *f.x2);
            if (d.run(s1, f.p) != s1 || d.run(s2, f.p) != s2)
                return C.say("p does not loop at the states reached by x and x2", false);
            return C.say("p loops at the distinct states reached by x and x2 and y separates them, so x·p^r·y and x2·p^r·y "
                         "differ for every r while sharing their last r·|p|+|y| symbols: the language is not definite",
                         true);
        }
        if (K == CertificateKind::RFamily) {
            // z = u·y with u a non-empty prefix of p; p loops at s = δ(x).
            if (f.x2 || !f.e.empty() || f.z.size() <= f.y.size() ||
                !std::equal(f.y.rbegin(), f.y.rend(), f.z.rbegin()))
                return C.say("an R-family needs z = u·y", false);
            Word u(f.z.begin(), f.z.end() - std::ptrdiff_t(f.y.size()));
            if (u.size() > f.p.size() || !std::equal(u.begin(), u.end(), f.p.begin()))
                return C.say("an R-family needs z = u·y with u a prefix of p", false);
            const State s = d.run(d.initial, f.x);
            if (d.run(s, f.p) != s) return C.say("p does not loop at the state reached by x", false);
            return C.say("p = u·v loops at the state reached by x and x(uv)^r y, x(uv)^r u y differ for every r, while "
                         "(uv)^ω u = (uv)^ω in every R-trivial monoid: the language is not R-trivial",
                         true);
        }
        // lrt_family: p = M u M v M, z = M u M y, w = e loops s and s·u; s·u·v = s.
        if (f.e.empty() || f.x2) return C.say("a locally R-trivial family needs a loop word e", false);
        const Symbol M = WordFamily::kLoopMarker;
        if (f.p.size() < 3 || f.p.front() != M || f.p.back() != M) return C.say("p must read e^r u e^r v e^r", false);
        auto mid = std::find(f.p.begin() + 1, f.p.end() - 1, M);
        if (mid == f.p.end() - 1) return C.say("p must read e^r u e^r v e^r", false);
        Word u(f.p.begin() + 1, mid), v(mid + 1, f.p.end() - 1);
        if (has_marker(v) || has_marker(f.y) || has_marker(f.x) || has_marker(f.e)) return C.say("misplaced loop markers", false);
        Word zexp{M};
        zexp.insert(zexp.end(), u.begin(), u.end());
        zexp.push_back(M);
        zexp.insert(zexp.end(), f.y.begin(), f.y.end());
        if (f.z != zexp) return C.say("z must read e^r u e^r y", false);
        const State s = d.run(d.initial, f.x), t = d.run(s, u);
        if (s == t || d.run(s, f.e) != s || d.run(t, f.e) != t || d.run(t, v) != s)
            return C.say("e must loop at s = δ(x) and t = s·u ≠ s, and v must lead back from t to s", false);
        return C.say("e loops at the distinct states s and s·u of one SCC, so x(EuEvE)^r y and x(EuEvE)^r EuE y (E = e^r) "
                     "differ for every r, while (eueve)^ω eue = (eueve)^ω in every locally R-trivial semigroup",
                     true);
    }
    if (K == CertificateKind::IdentityViolation) {
        const auto* fields = std::get_if<ViolationFields>(&cert.fields);
        if (!fields) {
            // What the reader could not type: no identity or words, an identity ltlkit does not know,
            // or a word that is not one of the alphabet.
            const std::string id = untyped_string(cert, "identity");
            if (id.empty() || !cert.untyped.contains("words") || !cert.untyped["words"].is_object())
                return make_error("an identity violation needs \"identity\" and \"words\"");
            if (!parse_identity(id)) return make_error("unknown identity '" + id + "'");
            return make_error("certificate field \"words\" must map names to words of the alphabet");
        }
        const std::string id = to_string(fields->identity);
        auto named = [&](const char* name) -> const Word* {
            for (const auto& [n, w] : fields->words)
                if (n == name) return &w;
            return nullptr;
        };
        auto nonempty = [&](const char* name) { return named(name) && !named(name)->empty(); };
        auto tw = [&](const char* name) -> Result<T> {
            const Word* w = named(name);
            if (!w) return make_error(std::string("identity violation needs word \"") + name + "\"");
            return transformation_of(d, *w);
        };
        auto om = [&](const char* name) -> Result<T> {
            auto t = tw(name);
            if (!t) return t;
            if (!nonempty(name)) return make_error(std::string("word \"") + name + "\" must be non-empty");
            auto o = omega_of(*t);
            if (!o) return make_error("cannot compute the idempotent power of " + std::string(name));
            return *o;
        };
        const std::optional<Identity> identity = fields->identity;
        const auto& refuting = base_row->refuted_by;
        if (std::find(refuting.begin(), refuting.end(), *identity) == refuting.end())
            return C.say("a violation of '" + id + "' does not refute " + cls, false);
#define TAKE(var, expr)            \
    auto var##_r = (expr);         \
    if (!var##_r) return var##_r.error(); \
    const T& var = *var##_r;
        bool holds = false;
        std::string what;
        if (*identity == Identity::XE) {
            TAKE(e, om("e"));
            TAKE(x, tw("x"));
            holds = nonempty("x") && compose(x, e) != e;
            what = "x·e ≠ e for the idempotent e = w^ω";
        } else if (*identity == Identity::EX) {
            TAKE(e, om("e"));
            TAKE(x, tw("x"));
            holds = nonempty("x") && compose(e, x) != e;
            what = "e·x ≠ e for the idempotent e";
        } else if (*identity == Identity::EXE) {
            TAKE(e, om("e"));
            TAKE(x, tw("x"));
            holds = nonempty("x") && compose(compose(e, x), e) != e;
            what = "e·x·e ≠ e for the idempotent e";
        } else if (*identity == Identity::RClass || *identity == Identity::LClass) {
            TAKE(s, tw("s"));
            TAKE(a, tw("a"));
            TAKE(b, tw("b"));
            const bool right = *identity == Identity::RClass;
            const T sa = right ? compose(s, a) : compose(a, s);
            const T back = right ? compose(sa, b) : compose(b, sa);
            holds = nonempty("s") && sa != s && back == s;
            what = right ? "s ≠ s·a and s·a·b = s (distinct R-equivalent elements)"
                         : "s ≠ a·s and b·a·s = s (distinct L-equivalent elements)";
        } else if (*identity == Identity::RClassOmega) {
            TAKE(u, tw("u"));
            TAKE(v, tw("v"));
            const T uv = compose(u, v);
            // e = (uv)^m with m the least exponent giving an idempotent; t = v·(uv)^(m-1).
            T e = uv, pw(uv.size());
            for (std::size_t q = 0; q < pw.size(); ++q) pw[q] = State(q);  // (uv)^(m-1)
            std::size_t m = 1;
            while (compose(e, e) != e && m < 2'000'000) e = compose(e, uv), pw = compose(pw, uv), ++m;
            const T eu = compose(e, u);
            holds = compose(e, e) == e && eu != e && compose(eu, compose(v, pw)) == e;
            what = "e = (uv)^ω ≠ e·u while e·u·v·(uv)^(ω-1) = e (distinct R-equivalent elements)";
        } else if (*identity == Identity::Aperiodic) {
            TAKE(u, tw("u"));
            auto e = omega_of(u);
            if (!e) return make_error("cannot compute u^ω");
            holds = compose(*e, u) != *e;
            what = "u^ω ≠ u^(ω+1) (a non-trivial group in the syntactic monoid)";
        } else if (*identity == Identity::LocalR) {
            TAKE(e, om("e"));
            TAKE(x0, tw("x"));
            TAKE(s, tw("s"));
            TAKE(t, tw("t"));
            const T x = compose(compose(e, x0), e);
            const T y = compose(x, compose(compose(e, s), e));
            holds = x != y && compose(y, compose(compose(e, t), e)) == x;
            what = "x = exe and y = x·ese are distinct and y·ete = x: eSe is not R-trivial";
        } else if (*identity == Identity::LocalIdempotent) {
            TAKE(e, om("e"));
            TAKE(s, tw("s"));
            const T x = compose(compose(e, s), e);
            holds = compose(x, x) != x;
            what = "(ese)² ≠ ese: eSe is not idempotent";
        } else if (*identity == Identity::LocalCommutative) {
            TAKE(e, om("e"));
            TAKE(s, tw("s"));
            TAKE(t, tw("t"));
            const T x = compose(compose(e, s), e), y = compose(compose(e, t), e);
            holds = compose(x, y) != compose(y, x);
            what = "(ese)(ete) ≠ (ete)(ese): eSe is not commutative";
        }
#undef TAKE
        return C.say(holds ? what + ": the identity of " + base + " fails" : "the claimed violation (" + what + ") does not hold",
                     holds);
    }
    if (window) return C.say("kind '" + kind + "' cannot refute " + cls, false);
    // dfa_criterion / semigroup_identity non-members: re-decide by every route.
    return redecide(d, row, cls, false, explanation);
}

}  // namespace ltlkit::automata::algebra
