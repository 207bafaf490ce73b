// The independent checker of the subregular certificates (docs/SUBREGULAR.md §6, "What the checker
// checks"). For every class and both answers it re-derives the claim by a route other than the
// decider's and verifies every field the certificate states: the member flag, each parameter of
// "params" (equal to the field of the same name where the certificate repeats it), its leastness
// (k-1 refuted by a witness; for LTT, (k,t) least in the order of §2.7), the tier, the word lists
// and the forbidden sets. A certificate that leans on a subclass ("by": SL-k for LT-k, SP-k for
// PT-k, LT-k for LTT-(k,1)) has that certificate re-checked on the same DFA.
#include <algorithm>
#include <map>
#include <set>

#include "automata/algebra/certificate_check.hh"
#include "automata/algebra/classes.hh"
#include "automata/algebra/subregular.hh"
#include "automata/algebra/subregular_internal.hh"
#include "automata/algorithms.hh"
#include "automata/dfa_json.hh"

namespace ltlkit::automata::algebra {

namespace {

using namespace subregular;

struct Say {
    std::string* why;
    bool operator()(const std::string& s, bool v) const {
        if (why) *why = s;
        return v;
    }
};

// The identities a violation may name (identity_violated evaluates them).
enum class Identity { DA, TW, Commutative, Aperiodic };

std::optional<Identity> identity_of(const std::string& s) {
    if (s == "da") return Identity::DA;
    if (s == "tw") return Identity::TW;
    if (s == "commutative") return Identity::Commutative;
    if (s == "aperiodic") return Identity::Aperiodic;
    return std::nullopt;
}

// A non-member by an identity that every language of the class satisfies (`refuting`).
Result<bool> check_violation(const nlohmann::json& j, const Dfa& d, const std::string& cls, std::initializer_list<Identity> refuting, Say say) {
    if (!j.contains("violation")) return say("a non-member " + cls + " certificate needs \"violation\"", false);
    const auto& v = j["violation"];
    if (!v.is_object() || !v.contains("identity") || !v["identity"].is_string() || !v.contains("words"))
        return make_error("\"violation\" needs \"identity\" and \"words\"");
    const std::string name = v["identity"];
    const auto id = identity_of(name);
    if (!id) return make_error("unknown identity '" + name + "' (da, tw, commutative, aperiodic)");
    if (std::find(refuting.begin(), refuting.end(), *id) == refuting.end())
        return say("the identity '" + name + "' does not refute " + cls, false);
    return identity_violated(d, name, v["words"], say.why);
}

Result<bool> same_language(const Dfa& built, const Dfa& d, const std::string& what, Say say) {
    if (auto w = distinguishing_word(built, d))
        return say(what + " and the embedded DFA differ on '" + format_word(d.alphabet, *w) + "'", false);
    return say(what + " is the embedded DFA's language", true);
}

// "params" holds exactly the keys `allowed` permits, every one a positive integer except "tier",
// and each equal to the certificate's top-level field of the same name where there is one.
Result<bool> check_params(const nlohmann::json& j, const std::set<std::string>& allowed, Say say) {
    if (!j["params"].is_object()) return make_error("\"params\" must be an object");
    for (const auto& [key, value] : j["params"].items()) {
        if (!allowed.count(key)) return say("the parameter \"" + key + "\" is not one this answer of " + j["class"].get<std::string>() + " has", false);
        if (key != "tier" && !(value.is_number_unsigned() && value.get<long long>() <= 1'000'000))
            return make_error("the parameter \"" + key + "\" must be an integer from 0 to 1000000");
        if (key != "tier" && key != "words" && value.get<long long>() == 0) return say("the parameter \"" + key + "\" is 0; it is at least 1", false);
        if (j.contains(key) && j[key] != value) return say("\"params\"." + key + " differs from the certificate's \"" + key + "\"", false);
    }
    for (const auto& key : allowed)
        if (j.contains(key) && !j["params"].contains(key)) return say("the certificate's \"" + key + "\" is missing from \"params\"", false);
    return true;
}

std::optional<std::size_t> param(const nlohmann::json& j, const char* key) {
    if (!j["params"].contains(key)) return std::nullopt;
    return j["params"][key].get<std::size_t>();
}

// ---- finite, cofinite

// The language of a finite list of words, as a minimal DFA (a trie and a dead state).
Dfa trie_dfa(const std::vector<std::string>& alphabet, const std::vector<Word>& words) {
    std::map<Word, State> id{{Word{}, State(1)}};
    for (const Word& w : words)
        for (std::size_t i = 1; i <= w.size(); ++i) id.emplace(Word(w.begin(), w.begin() + long(i)), State(id.size() + 1));
    Dfa r;
    r.alphabet = alphabet;
    r.initial = 1;
    r.accepting.assign(id.size() + 1, 0);
    r.delta.assign((id.size() + 1) * alphabet.size(), 0);
    for (const auto& [w, q] : id)
        for (std::size_t a = 0; a < alphabet.size(); ++a) {
            Word x = w;
            x.push_back(Symbol(a));
            auto it = id.find(x);
            r.delta[q * alphabet.size() + a] = it == id.end() ? 0 : it->second;
        }
    for (const Word& w : words) r.accepting[id.at(w)] = 1;
    return minimize(r);
}

Result<bool> check_finite(const nlohmann::json& j, const Dfa& d, bool cofinite, bool member, Say say) {
    const std::string cls = to_string(cofinite ? ClassKind::Cofinite : ClassKind::Finite);
    const Dfa e = cofinite ? complement(d) : d;
    const char* in = cofinite ? "rejected" : "accepted";
    auto p = check_params(j, member && j.contains(in) ? std::set<std::string>{"words"} : std::set<std::string>{}, say);
    if (!p || !*p) return p;
    if (!member) {
        if (!j.contains("pump")) return say("a non-member certificate needs \"pump\"", false);
        if (!j["pump"].is_object()) return make_error("\"pump\" is an object {u, w, v}");
        Word u, w, v;
        for (auto [name, out] : {std::pair{"u", &u}, {"w", &w}, {"v", &v}}) {
            auto r = j["pump"].contains(name) ? word_from_json(j["pump"][name], d.alphabet) : Result<Word>(make_error("\"pump\" needs u, w, v"));
            if (!r) return r.error();
            *out = *r;
        }
        const State q = e.run(e.initial, u);
        if (w.empty() || e.run(q, w) != q) return say("w is empty or does not loop after u", false);
        if (!e.is_accepting(e.run(q, v))) return say(std::string("u·v is ") + (cofinite ? "accepted" : "rejected"), false);
        return say(std::string("u·wʳ·v is ") + (cofinite ? "rejected" : "accepted") + " for every r", true);
    }
    // Pumping: an infinite language has a word of length in [n, 2n).
    const std::size_t n = e.num_states();
    const auto counts = count_accepted(e, 2 * n);
    for (std::size_t len = n; len < 2 * n; ++len)
        if (counts[len]) return say("a word of length " + std::to_string(len) + " >= the number of states is in the set", false);
    if (!j.contains(in)) {
        // Not listed: only when there are more words than a certificate lists.
        std::uint64_t total = 0;
        for (std::size_t len = 0; len < n; ++len) total += counts[len];
        const std::size_t listed = SubregularOptions{}.max_listed;
        if (total <= listed)
            return say("the " + std::to_string(total) + " " + in + " words are not listed (they are, up to " + std::to_string(listed) + ")", false);
        return say(std::string("no ") + in + " word of length in [n, 2n): the set is finite (" + std::to_string(total) + " words, not listed)", true);
    }
    // The list: distinct words whose language (a trie) is exactly the set, and "words" its size.
    if (!j[in].is_array()) return make_error(std::string("\"") + in + "\" is an array of words");
    std::vector<Word> words;
    for (const auto& x : j[in]) {
        auto w = word_from_json(x, d.alphabet);
        if (!w) return w.error();
        words.push_back(*w);
    }
    if (std::set<Word>(words.begin(), words.end()).size() != words.size()) return say(std::string("the ") + in + " words repeat", false);
    if (param(j, "words") != words.size())
        return say("\"params\".words is not the number of " + std::string(in) + " words listed (" + std::to_string(words.size()) + ")", false);
    auto r = same_language(trie_dfa(d.alphabet, words), e, std::string("the set of the ") + std::to_string(words.size()) + " listed words", say);
    if (!r || !*r) return r;
    return say(std::string("the set of ") + in + " words is finite (pumping) and is exactly the " + std::to_string(words.size()) + " listed", true);
}

// ---- SL, TSL

Result<bool> check_sl_like(const nlohmann::json& j, const Dfa& d, bool tier, bool member, Say say) {
    Dfa on = d;
    if (tier) {
        // The tier must be exactly the letters that are not free, in the alphabet's order: every
        // tier holds them (so a "no" on it is a "no" on every tier), and SL-k on a larger tier
        // implies SL-k on it (so its k is the least).
        if (!j.contains("tier")) return say("a TSL certificate needs \"tier\"", false);
        if (!j["tier"].is_array()) return make_error("\"tier\" is an array of symbol names");
        std::vector<Symbol> keep;
        for (const auto& s : j["tier"]) {
            if (!s.is_string()) return make_error("\"tier\" holds symbol names");
            auto it = std::find(d.alphabet.begin(), d.alphabet.end(), s.get<std::string>());
            if (it == d.alphabet.end()) return make_error("the tier symbol '" + s.get<std::string>() + "' is not in the alphabet");
            keep.push_back(Symbol(it - d.alphabet.begin()));
        }
        std::vector<Symbol> not_free;
        for (Symbol a = 0; a < d.num_symbols(); ++a)
            for (State q = 0; q < d.num_states(); ++q)
                if (d.next(q, a) != q) {
                    not_free.push_back(a);
                    break;
                }
        if (keep != not_free) {
            for (Symbol a : not_free)
                if (std::find(keep.begin(), keep.end(), a) == keep.end())
                    return say("the letter " + d.alphabet[a] + " is not free but is not on the tier", false);
            for (Symbol a : keep)
                if (std::find(not_free.begin(), not_free.end(), a) == not_free.end())
                    return say("the letter " + d.alphabet[a] + " is free (it loops on every state) but is on the tier: the tier is not the least", false);
            return say("the tier is not the non-free letters, once each, in the alphabet's order", false);
        }
        on = restrict_letters(d, keep);
    }
    auto p = check_params(j, member ? (tier ? std::set<std::string>{"tier", "k"} : std::set<std::string>{"k"}) : std::set<std::string>{}, say);
    if (!p || !*p) return p;
    if (!member) {
        if (!j.contains("every_k")) return say("a non-member certificate needs \"every_k\"", false);
        if (!j["every_k"].is_object() || j["every_k"].value("loop", false) != true)
            return say("\"every_k\" is not a triple whose x loops", false);
        return check_sl_triple(on, j["every_k"], std::nullopt, say.why);
    }
    if (tier && j["params"].value("tier", nlohmann::json()) != j["tier"]) return say("\"params\".tier is not the certificate's tier", false);
    const auto k = param(j, "k");
    if (!k) return say("a member certificate needs \"params\".k", false);
    if (*k > 64) return make_error("\"params\".k must be an integer from 1 to 64");
    if (*k >= 2) {
        if (!j.contains("below")) return say("k = " + std::to_string(*k) + " is claimed least but no \"below\" triple refutes k-1", false);
        std::string w;
        auto r = check_sl_triple(on, j["below"], *k - 1, &w);
        if (!r) return r.error();
        if (!*r) return say("the triple refuting SL-" + std::to_string(*k - 1) + ": " + w, false);
    }
    // The forbidden factors: given, they must be well-formed, distinct, and exactly the marked
    // k-factors that no word of the language has (found from the DFA by a search over (state, last
    // k-1 symbols)); omitted, the checker lists them so. Either way the SL-k language they define
    // is rebuilt and compared.
    const auto all = sl_all_factors(on.num_symbols(), unsigned(*k));
    const std::set<Word> well_formed(all.begin(), all.end());
    std::optional<std::set<Word>> expect;
    if (auto allowed = sl_allowed_factors(on, unsigned(*k), 2'000'000)) {
        const std::set<Word> ok(allowed->begin(), allowed->end());
        expect.emplace();
        for (const Word& f : all)
            if (!ok.count(f)) expect->insert(f);
    }
    std::vector<Word> forbidden;
    if (j.contains("forbidden")) {
        if (!j["forbidden"].is_array()) return make_error("\"forbidden\" is an array of marked factors");
        for (const auto& f : j["forbidden"]) {
            auto w = marked_from_json(f, on.alphabet);
            if (!w) return w.error();
            if (!well_formed.count(*w)) return say("the factor " + marked_word_text(on.alphabet, *w) + " is not a well-formed marked " + std::to_string(*k) + "-factor", false);
            forbidden.push_back(*w);
        }
        const std::set<Word> given(forbidden.begin(), forbidden.end());
        if (given.size() != forbidden.size()) return say("a forbidden factor is listed twice", false);
        if (expect && given != *expect) {
            for (const Word& f : *expect)
                if (!given.count(f)) return say("the factor " + marked_word_text(on.alphabet, f) + " occurs in no word of the language but is not listed", false);
            for (const Word& f : given)
                if (!expect->count(f)) return say("the listed factor " + marked_word_text(on.alphabet, f) + " occurs in a word of the language", false);
        }
    } else {
        if (!expect) return say("too many factors to rebuild the SL-" + std::to_string(*k) + " language", false);
        forbidden.assign(expect->begin(), expect->end());
    }
    Dfa built = sl_dfa_from_forbidden(on.alphabet, unsigned(*k), forbidden);
    if (tier) built = lift_tier_dfa(built, d.alphabet);
    return same_language(built, d,
                         std::string(tier ? "the tier projection's " : "the ") + "SL-" + std::to_string(*k) +
                             " language of the forbidden factors" + (tier ? ", lifted," : "") + (*k >= 2 ? " (k least by the triple)" : ""),
                         say);
}

// ---- SP

bool minimal_non_member(const Dfa& d, const Word& w) {
    if (d.accepts(w)) return false;
    for (std::size_t i = 0; i < w.size(); ++i) {
        Word x = w;
        x.erase(x.begin() + long(i));
        if (!d.accepts(x)) return false;
    }
    return true;
}

Result<bool> check_sp(const nlohmann::json& j, const Dfa& d, bool member, Say say) {
    auto p = check_params(j, member ? std::set<std::string>{"k"} : std::set<std::string>{}, say);
    if (!p || !*p) return p;
    if (!member) {
        const auto& del = j.contains("deletion") ? j["deletion"] : nlohmann::json();
        if (!j.contains("deletion")) return say("a non-member SP certificate needs \"deletion\"", false);
        if (!del.is_object() || !del.contains("longer") || !del.contains("shorter")) return make_error("\"deletion\" needs \"longer\" and \"shorter\"");
        auto a = word_from_json(del["longer"], d.alphabet), b = word_from_json(del["shorter"], d.alphabet);
        if (!a) return a.error();
        if (!b) return b.error();
        bool one_deletion = a->size() == b->size() + 1;
        if (one_deletion) {
            std::size_t i = 0;
            while (i < b->size() && (*a)[i] == (*b)[i]) ++i;
            one_deletion = std::equal(b->begin() + long(i), b->end(), a->begin() + long(i) + 1);
        }
        if (!one_deletion) return say("the shorter word is not the longer one with a letter deleted", false);
        if (!d.accepts(*a) || d.accepts(*b)) return say("the longer word is not accepted or the shorter one is", false);
        return say("deleting a letter leaves the language: not closed under subsequences", true);
    }
    const auto k = param(j, "k");
    if (!k) return say("a member SP certificate needs \"params\".k", false);
    if (!j.contains("forbidden") || !j["forbidden"].is_array()) return say("no forbidden subsequences to rebuild the language", false);
    // Each listed word a minimal non-member and the language exactly the words avoiding them: then
    // the list is all the minimal non-members (each contains a listed one, which is not smaller),
    // and the least k is the longest (at least 1).
    std::vector<Word> forbidden;
    std::size_t longest = 0;
    for (const auto& f : j["forbidden"]) {
        auto w = word_from_json(f, d.alphabet);
        if (!w) return w.error();
        if (!minimal_non_member(d, *w)) return say("the forbidden subsequence '" + format_word(d.alphabet, *w) + "' is not a minimal rejected word", false);
        longest = std::max(longest, w->size()), forbidden.push_back(*w);
    }
    if (std::set<Word>(forbidden.begin(), forbidden.end()).size() != forbidden.size()) return say("a forbidden subsequence is listed twice", false);
    if (std::max<std::size_t>(longest, 1) != *k)
        return say("k = " + std::to_string(*k) + " is not the length of the longest forbidden subsequence (" + std::to_string(longest) + ")", false);
    if (*k >= 2) {
        if (!j.contains("below")) return say("SP-k with k >= 2 needs \"below\"", false);
        auto b = word_from_json(j["below"], d.alphabet);
        if (!b) return b.error();
        if (b->size() != *k || !minimal_non_member(d, *b)) return say("\"below\" is not a minimal rejected word of length k", false);
    }
    return same_language(sp_dfa_from_forbidden(d.alphabet, forbidden), d, "the SP language of the forbidden subsequences (all minimal)", say);
}

// ---- certificates within certificates

// A subregular certificate embedded without its DFA ("by"), checked on the outer DFA; it must be
// a member certificate of one of `classes`. Its proven k ("k", else "k_at_most") is returned.
Result<std::optional<std::size_t>> check_embedded(const nlohmann::json& by, const nlohmann::json& dfa, std::initializer_list<ClassKind> classes,
                                                  Say say) {
    if (!by.is_object() || !by.contains("class") || !by["class"].is_string()) return make_error("\"by\" is a certificate object");
    const std::string cls = by["class"];
    const std::optional<ClassId> id = parse_class_id(cls);
    if (!id || std::none_of(classes.begin(), classes.end(), [&](ClassKind c) { return *id == ClassId(c); }) ||
        by.value("member", false) != true) {
        say("\"by\" is not a member certificate of a subclass", false);
        return std::optional<std::size_t>();
    }
    nlohmann::json c = by;
    c["dfa"] = dfa;
    c["kind"] = "subregular";
    std::string w;
    auto r = check_subregular_certificate(c, &w);
    if (!r) return r.error();
    if (!*r) {
        say("the embedded " + cls + " certificate does not hold: " + w, false);
        return std::optional<std::size_t>();
    }
    for (const char* key : {"k", "k_at_most"})
        if (c["params"].contains(key)) return std::optional<std::size_t>(c["params"][key].get<std::size_t>());
    return std::optional<std::size_t>(0);  // holds, no k
}

// A classes certificate (docs/CLASSES.md §3) embedded with its DFA ("by_class"): the same language,
// the given class and answer, and it holds.
Result<bool> check_by_class(const nlohmann::json& j, const Dfa& d, const std::string& base, bool member, Say say) {
    const auto& b = j["by_class"];
    if (!b.is_object() || b.value("class", "") != base || b.value("member", !member) != member || !b.contains("dfa"))
        return say("\"by_class\" is not a " + base + " certificate with the same answer", false);
    auto bd = dfa_from_json(b["dfa"].dump());
    if (!bd) return bd.error();
    if (bd->alphabet != d.alphabet || distinguishing_word(*bd, d)) return say("\"by_class\" is about another language", false);
    return check_certificate_json(b.dump(), say.why);
}

// ---- LT, PT, LTT

// Is membership a function of the type (PT: the subsequences of length <= k; LT/LTT: the counts
// of the k-factors of ⋊w⋉ capped at t, t = 1 for LT)? Written apart from the deciders'
// type_search (which packs types into bytes): here a type is the set / map of words itself, with
// the end factor in it, built letter by letter over the reachable (state, type) pairs; nullopt
// after max_nodes pairs.
std::optional<bool> types_decide(const Dfa& d, TypeKind kind, unsigned k, unsigned t, std::size_t max_nodes) {
    struct Node {
        State q;
        Word buffer;                        // LT/LTT: the last k-1 symbols of ⋊w (fewer at first)
        std::map<Word, unsigned> counts;    // LT/LTT: k-factors of ⋊w, capped; PT: subsequences (count 1)
    };
    const unsigned cap = kind == TypeKind::LTT ? t : 1;
    auto type_of = [&](const Node& n) {
        if (kind == TypeKind::PT) return n.counts;
        std::map<Word, unsigned> c = n.counts;
        Word end = n.buffer;
        end.push_back(kRightMarker);
        if (end.size() == k || end.front() == kLeftMarker) c[end] = 1;  // the end factor, or the whole ⋊w⋉
        return c;
    };
    std::set<std::pair<State, std::map<Word, unsigned>>> seen;  // (state, type of ⋊w without the end)
    std::map<std::map<Word, unsigned>, bool> member;
    std::vector<Node> todo;
    Node start{d.initial, {kLeftMarker}, {}};
    if (kind == TypeKind::PT) start.buffer.clear(), start.counts[Word{}] = 1;
    auto key = [&](const Node& n) {
        auto c = n.counts;
        if (kind != TypeKind::PT) c[n.buffer] = 0;  // the buffer is part of the state (count 0 marks it)
        return std::make_pair(n.q, c);
    };
    if (kind != TypeKind::PT && k == 1) start.counts[Word{kLeftMarker}] = 1, start.buffer.clear();
    seen.insert(key(start)), todo.push_back(start);
    while (!todo.empty()) {
        Node n = std::move(todo.back());
        todo.pop_back();
        auto [it, fresh] = member.emplace(type_of(n), d.is_accepting(n.q));
        if (!fresh && it->second != d.is_accepting(n.q)) return false;
        for (Symbol a = 0; a < d.num_symbols(); ++a) {
            Node m{d.next(n.q, a), n.buffer, n.counts};
            if (kind == TypeKind::PT) {
                for (const auto& [x, c] : n.counts)
                    if (x.size() < k) {
                        Word y = x;
                        y.push_back(a);
                        m.counts[y] = 1;
                    }
            } else {
                m.buffer.push_back(a);
                if (m.buffer.size() == k) {
                    auto& c = m.counts[m.buffer];
                    c = std::min(c + 1, cap);
                    m.buffer.erase(m.buffer.begin());
                }
            }
            if (seen.insert(key(m)).second) {
                if (seen.size() > max_nodes) return std::nullopt;
                todo.push_back(std::move(m));
            }
        }
    }
    return true;
}

// A least k that is not known: the decision re-run under the certificate's "limits" gives the
// same parameters (the bounds themselves are checked by their pairs and subclass certificates).
Result<bool> check_unknown_k(const nlohmann::json& j, const Dfa& d, const ClassId& cls, Say say) {
    if (!j.contains("limits")) return say("a certificate without a least k needs the \"limits\" of its search", false);
    auto o = limits_from_json(j["limits"]);
    if (!o) return o.error();
    auto again = decide_subregular(cls, d, *o);
    if (!again || again->member != true || again->params != j["params"])
        return say("the search under the certificate's limits gives the parameters " + (again ? again->params.dump() : std::string("{}")) +
                       ", not those claimed",
                   false);
    return true;
}

// Two words, accepted and rejected, of one type (of `what`).
template <class Type>
Result<bool> check_pair(const nlohmann::json& b, const Dfa& d, Type type, const std::string& what, Say say) {
    if (!b.is_object() || !b.contains("accepted") || !b.contains("rejected")) return make_error("a refuting pair needs \"accepted\" and \"rejected\"");
    auto u = word_from_json(b["accepted"], d.alphabet), v = word_from_json(b["rejected"], d.alphabet);
    if (!u) return u.error();
    if (!v) return v.error();
    if (!d.accepts(*u) || d.accepts(*v)) return say("the pair refuting " + what + " is not [accepted, rejected]", false);
    if (type(*u) != type(*v)) return say("the pair refuting " + what + " has two types", false);
    return say("two words of one type differ: not " + what, true);
}

Result<bool> check_pt_lt(const nlohmann::json& j, const Dfa& d, TypeKind kind, bool member, Say say) {
    const ClassId id = kind == TypeKind::PT ? ClassKind::PT : ClassKind::LT;
    const std::string cls = to_string(id);
    const std::string base = to_string(kind == TypeKind::PT ? ClassKind::PiecewiseTestable : ClassKind::LocallyTestable);
    const ClassKind sub = kind == TypeKind::PT ? ClassKind::SP : ClassKind::SL;
    auto p = check_params(j, member ? std::set<std::string>{"k", "k_above", "k_at_most"} : std::set<std::string>{}, say);
    if (!p || !*p) return p;
    if (!member) {
        if (!j.contains("by_class")) return say("a non-member certificate needs \"by_class\"", false);
        return check_by_class(j, d, base, false, say);
    }
    const auto k = param(j, "k"), above = param(j, "k_above"), at_most = param(j, "k_at_most");
    if (k && (above || at_most)) return say("\"params\" gives k and bounds on it", false);
    if (above && at_most && *above >= *at_most) return say("the bounds on k leave nothing", false);
    auto type = [&](unsigned kk) {
        return [kind, kk](const Word& w) { return kind == TypeKind::PT ? pt_type(w, kk) : lt_type(w, kk); };
    };
    // Leastness: a pair of one (k-1)-type (or k_above-type) that differ.
    if (const std::size_t refuted = k ? *k - 1 : above.value_or(0); refuted >= 1) {
        if (!j.contains("below")) return say("no \"below\" pair refutes " + cls + "-" + std::to_string(refuted), false);
        std::string w;
        auto r = check_pair(j["below"], d, type(unsigned(refuted)), cls + "-" + std::to_string(refuted), Say{&w});
        if (!r) return r.error();
        if (!*r) return say(w, false);
    }
    if (!k) {
        auto r = check_unknown_k(j, d, id, say);
        if (!r || !*r) return r;
    }
    // Membership (in LT-k / PT-k when k or k_at_most is given).
    const std::string bound = k ? " (least by the pair below)" : "";
    if (j.contains("by")) {
        auto r = check_embedded(j["by"], j["dfa"], {sub}, say);
        if (!r) return r.error();
        if (!*r) return false;
        const std::size_t need = k ? *k : at_most.value_or(0);
        if (**r && !need) return say("the embedded " + to_string(sub) + " certificate proves k <= " + std::to_string(**r) + ", which \"params\" does not report", false);
        if (need && **r != need) return say("the embedded " + to_string(sub) + " certificate proves k = " + std::to_string(**r) + ", not " + std::to_string(need), false);
        return say(to_string(sub) + "-" + std::to_string(**r) + " ⊆ " + cls + "-" + std::to_string(**r) + " by the embedded certificate" + bound, true);
    }
    if (at_most) return say("k_at_most needs the subclass certificate \"by\"", false);
    if (k) {
        if (*k > 64) return make_error("k above 64");
        const auto r = types_decide(d, kind, unsigned(*k), 1, 1'000'000);
        if (r != true) return say(r ? "two words of one " + std::to_string(*k) + "-type differ" : "the type search is over its limit", false);
        return say("membership is a function of the " + std::to_string(*k) + "-type (exhaustive search over (state, type))" + bound, true);
    }
    if (!j.contains("by_class")) return say("no proof of membership (\"by_class\", \"by\" or k)", false);
    return check_by_class(j, d, base, true, say);
}

Result<bool> check_ltt(const nlohmann::json& j, const Dfa& d, bool member, Say say) {
    auto p = check_params(j, member ? std::set<std::string>{"k", "t", "k_above", "k_at_most"} : std::set<std::string>{}, say);
    if (!p || !*p) return p;
    if (!member) return check_violation(j, d, to_string(ClassKind::LTT), {Identity::TW, Identity::Aperiodic}, say);
    const auto k = param(j, "k"), t = param(j, "t"), above = param(j, "k_above"), at_most = param(j, "k_at_most");
    if (bool(k) != bool(t)) return say("\"params\" gives one of k and t without the other", false);
    if (k && (above || at_most)) return say("\"params\" gives (k,t) and bounds on k", false);
    if (above && at_most && *above >= *at_most) return say("the bounds on k leave nothing", false);
    if ((k && *k > 64) || (t && *t > 1000)) return make_error("k or t too large");
    // Leastness in the order of docs/SUBREGULAR.md §2.7: no (k', t') with k' < k and t' <= t_max
    // (a pair of one (k-1, t_max)-type refutes them all: the (k, t)-type determines the (k', t')-type
    // for k' <= k, t' <= t), then no t' < t at k (a pair of one (k, t-1)-type).
    const std::size_t refuted = k ? *k - 1 : above.value_or(0);
    std::size_t t_max = 0;
    if (refuted >= 1 || (t && *t >= 2)) {
        if (!j.contains("t_max")) return say("an LTT certificate with parameters needs \"t_max\"", false);
        if (!j["t_max"].is_number_unsigned() || j["t_max"].get<std::size_t>() < 1) return make_error("\"t_max\" must be a positive integer");
        t_max = j["t_max"];
        if (t && *t > t_max) return say("t is above t_max", false);
    }
    auto check = [&](const char* field, std::size_t kk, std::size_t tt) -> Result<bool> {
        if (!j.contains(field)) return say("no \"" + std::string(field) + "\" pair refutes LTT-(" + std::to_string(kk) + "," + std::to_string(tt) + ")", false);
        std::string w;
        auto r = check_pair(j[field], d, [kk, tt](const Word& x) { return ltt_type(x, unsigned(kk), unsigned(tt)); },
                            "LTT-(" + std::to_string(kk) + "," + std::to_string(tt) + ")", Say{&w});
        if (!r) return r.error();
        return *r ? true : say(w, false);
    };
    if (refuted >= 1) {
        auto r = check("below_k", refuted, t_max);
        if (!r || !*r) return r;
    }
    if (t && *t >= 2) {
        auto r = check("below_t", *k, *t - 1);
        if (!r || !*r) return r;
    }
    if (!k) {
        auto r = check_unknown_k(j, d, ClassKind::LTT, say);
        if (!r || !*r) return r;
    }
    const std::string least = k ? " ((k,t) least by the pairs)" : "";
    if (j.contains("by")) {
        auto r = check_embedded(j["by"], j["dfa"], {ClassKind::LT, ClassKind::SL}, say);
        if (!r) return r.error();
        if (!*r) return false;
        if (**r && !k && !at_most) return say("the embedded certificate proves LT-" + std::to_string(**r) + ", which \"params\" does not report", false);
        if (k && !(*t == 1 && **r == *k)) return say("the embedded certificate proves LT-" + std::to_string(**r) + ", not LTT-(" + std::to_string(*k) + "," + std::to_string(*t) + ")", false);
        if (at_most && **r != *at_most) return say("the embedded certificate proves LT-" + std::to_string(**r) + ", not LT-" + std::to_string(*at_most), false);
        return say("LT ⊆ LTT (LT-k ⊆ LTT-(k,1)) by the embedded certificate" + least, true);
    }
    if (at_most) return say("k_at_most needs the subclass certificate \"by\"", false);
    if (k) {
        const auto r = types_decide(d, TypeKind::LTT, unsigned(*k), unsigned(*t), 1'000'000);
        if (r != true) return say(r ? "two words of one (k,t)-type differ" : "the (k,t)-type search is over its limit", false);
        return say("membership is a function of the (k,t)-threshold counts of factors (exhaustive search over (state, type))" + least, true);
    }
    auto again = decide_subregular(ClassKind::LTT, d);
    if (!again || again->member != true) return say("re-deciding LTT does not give membership", false);
    return say("re-decided: " + again->fact, true);
}

// ---- DA, aperiodic commutative

Result<bool> check_semigroup_class(const nlohmann::json& j, const Dfa& d, const ClassId& id, bool member, Say say) {
    auto p = check_params(j, {}, say);
    if (!p || !*p) return p;
    const std::string cls = to_string(id);
    const bool da = id == ClassKind::DA;
    if (!member)
        return check_violation(j, d, cls, da ? std::initializer_list<Identity>{Identity::DA, Identity::Aperiodic}
                                             : std::initializer_list<Identity>{Identity::Commutative, Identity::Aperiodic},
                               say);
    // The identities over every element (pair) of a small semigroup, a route independent of the
    // deciders (Green's relations for DA, the letters for commutativity); else re-decided.
    if (auto S = SemigroupAnalysis::of(d, 3'000)) {
        const auto& s = (*S)->s;
        for (Element x = 0; x < s.size(); ++x) {
            if (!da && s.product(s.omega(x), x) != s.omega(x)) return say("x^ω ≠ x^(ω+1) for some x: not aperiodic", false);
            for (Element y = 0; y < s.size(); ++y) {
                if (da) {
                    const Element w = s.omega(s.product(x, y));
                    if (s.product(s.product(w, x), w) != w) return say("(xy)^ω x (xy)^ω ≠ (xy)^ω for some x, y", false);
                } else if (s.product(x, y) != s.product(y, x)) {
                    return say("xy ≠ yx for some x, y", false);
                }
            }
        }
        return say(da ? "(xy)^ω x (xy)^ω = (xy)^ω for every x, y of the syntactic semigroup"
                      : "xy = yx and x^ω = x^(ω+1) for every x, y of the syntactic semigroup",
                   true);
    }
    auto again = decide_subregular(id, d);
    if (!again || again->member != true) return say("re-deciding " + cls + " does not give membership", false);
    return say("re-decided: " + again->fact, true);
}

}  // namespace

Result<bool> check_subregular_certificate(const nlohmann::json& given, std::string* why) {
    Say say{why};
    // No "params" claims no parameter (every field that names one must then be absent).
    nlohmann::json j = given;
    if (j.is_object() && !j.contains("params")) j["params"] = nlohmann::json::object();
    if (!j.is_object() || !j.contains("dfa") || !j.contains("member") || !j.contains("class") || !j["class"].is_string())
        return make_error("a certificate needs \"class\", \"member\" and \"dfa\"");
    const std::string cls = j["class"];
    if (!is_subregular_class(cls)) return make_error("unknown subregular class '" + cls + "'");
    auto dr = dfa_from_json(j["dfa"].dump());
    if (!dr) return dr.error();
    const Dfa& d = *dr;
    if (!is_minimal(d)) return say("the embedded DFA is not minimal", false);
    if (!j["member"].is_boolean()) return say("the decision was left open (\"member\": null): nothing to check", false);
    const bool member = j["member"];
    if (member && j.contains("violation")) return say("an identity violation refutes membership; it cannot prove it", false);
    using K = ClassKind;
    const ClassId id = *parse_class_id(cls);
    switch (id.kind) {
        case K::Finite:
        case K::Cofinite: return check_finite(j, d, id == K::Cofinite, member, say);
        case K::SL:
        case K::TSL: return check_sl_like(j, d, id == K::TSL, member, say);
        case K::SP: return check_sp(j, d, member, say);
        case K::LT:
        case K::PT: return check_pt_lt(j, d, id == K::PT ? TypeKind::PT : TypeKind::LT, member, say);
        case K::LTT: return check_ltt(j, d, member, say);
        default: return check_semigroup_class(j, d, id, member, say);  // DA, aperiodic_commutative
    }
}

}  // namespace ltlkit::automata::algebra
