// The Python module ltlkit._ltlkit (pybind11): the symbolic API of ltlkit with the C++ names
// (parse_formula, compile, compile_regex, classify, check_certificate, Sampler, generate_dataset,
// sweep_report, ...). Errors become ltlkit.Error subclasses carrying the CLI's message and exit
// code. Long calls run without the GIL; the sampler and the dataset generator poll for Ctrl-C
// (KeyboardInterrupt).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <string>
#include <variant>
#include <vector>

#include "automata/algebra/budget.hh"
#include "automata/algebra/classify.hh"
#include "automata/algebra/classification_json.hh"
#include "automata/algebra/prediction_suite.hh"
#include "automata/algebra/subregular.hh"
#include "automata/algorithms.hh"
#include "automata/ceiling.hh"
#include "automata/dataset.hh"
#include "automata/dfa.hh"
#include "automata/dfa_json.hh"
#include "automata/dot.hh"
#include "automata/language.hh"
#include "automata/monitor.hh"
#include "automata/regex.hh"
#include "automata/sampler.hh"
#include "base/error.hh"
#include "ltl/formula.hh"
#include "ltl/fragment.hh"
#include "ltl/parser.hh"
#include "ltl/printer.hh"
#include "ltl/semantics.hh"
#include "neural/verify/sweep.hh"

namespace py = pybind11;
using namespace ltlkit;
using automata::Dfa;
using automata::Word;
using ltl::Formula;

namespace {

// ---- errors: ltlkit.Error(Exception) and one subclass per exit class (docs/ERRORS.md)

struct LibraryError {
    Error error;
};
// Raised from a progress hook when Python has a pending signal (KeyboardInterrupt); the Python
// error indicator stays set until the call returns with the GIL.
struct Interrupted {};

PyObject* g_error = nullptr;        // ltlkit.Error
PyObject* g_input_error = nullptr;  // exit 2: bad input (also a ValueError)
PyObject* g_limit_error = nullptr;  // exit 3: a limit was hit (also a RuntimeError)
PyObject* g_io_error = nullptr;     // exit 4: I/O failure (also an OSError)

template <class T>
T take(Result<T> r) {
    if (!r.ok()) throw LibraryError{r.error()};
    return std::move(r).value();
}

// The library's messages name the CLI's options; from Python they name the keyword arguments:
// "--max-states 5" -> "max_states=5", "raise --max-states" -> "raise max_states=", "--force" ->
// "force=True", "--alphabet a,b" -> 'alphabet="a,b"'. Options without a keyword stay as written.
std::string python_words(std::string s) {
    static const std::pair<const char*, const char*> keywords[] = {
        {"max-states", "max_states"},       {"max-table-cells", "max_table_cells"}, {"formula-cap", "formula_cap"},
        {"window-time", "window_time"},     {"window-memory", "window_memory"},     {"max-elements", "max_elements"},
        {"max-k", "max_k"},                 {"per-length", "per_length"}};
    for (const auto& [flag, keyword] : keywords) {
        const std::string option = std::string("--") + flag;
        s = std::regex_replace(s, std::regex(option + " ([0-9][0-9.]*)"), std::string(keyword) + "=$1");
        s = std::regex_replace(s, std::regex(option + "\\b"), std::string(keyword) + "=");
    }
    s = std::regex_replace(s, std::regex("--alphabet ([A-Za-z0-9_,]+)(?=\\)|,|;| to\\b|$)"), "alphabet=\"$1\"");
    s = std::regex_replace(s, std::regex("--alphabet\\b"), "alphabet=");
    s = std::regex_replace(s, std::regex("--force\\b"), "force=True");
    return std::regex_replace(s, std::regex("\\bltlkit generate\\b"), "ltlkit.generate_dataset");
}

void raise_library_error(const Error& e) {
    PyObject* cls = e.exit_code == 3 ? g_limit_error : e.exit_code == 4 ? g_io_error : g_input_error;
    py::object exc = py::reinterpret_borrow<py::object>(cls)(python_words(e.one_line()));
    exc.attr("exit_code") = e.exit_code;
    exc.attr("message") = python_words(e.message);
    exc.attr("line") = e.line;
    exc.attr("column") = e.column;
    exc.attr("origin") = e.origin;
    exc.attr("rendered") = python_words(e.render());
    PyErr_SetObject(cls, exc.ptr());
}

// Runs f without the GIL; a pending signal seen by a hook is re-raised once the GIL is back.
template <class F>
auto without_gil(F&& f) {
    try {
        py::gil_scoped_release release;
        return f();
    } catch (const Interrupted&) {
        throw py::error_already_set();
    }
}

// Called from library hooks without the GIL: true (after which the hook throws Interrupted) when
// Python has a pending signal. Rate-limited to a few checks per second.
class InterruptPoll {
public:
    void operator()() {
        auto now = std::chrono::steady_clock::now();
        if (now - last_ < std::chrono::milliseconds(50)) return;
        last_ = now;
        py::gil_scoped_acquire acquire;
        if (PyErr_CheckSignals() != 0) throw Interrupted{};
    }

private:
    std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

// ---- JSON (nlohmann) -> Python objects, for certificates and meta.json

py::object to_python(const nlohmann::ordered_json& j) {
    switch (j.type()) {
        case nlohmann::ordered_json::value_t::null: return py::none();
        case nlohmann::ordered_json::value_t::boolean: return py::bool_(j.get<bool>());
        case nlohmann::ordered_json::value_t::number_integer: return py::int_(j.get<std::int64_t>());
        case nlohmann::ordered_json::value_t::number_unsigned: return py::int_(j.get<std::uint64_t>());
        case nlohmann::ordered_json::value_t::number_float: return py::float_(j.get<double>());
        case nlohmann::ordered_json::value_t::string: return py::str(j.get<std::string>());
        case nlohmann::ordered_json::value_t::array: {
            py::list l;
            for (const auto& x : j) l.append(to_python(x));
            return l;
        }
        case nlohmann::ordered_json::value_t::object: {
            py::dict d;
            for (const auto& [k, v] : j.items()) d[py::str(k)] = to_python(v);
            return d;
        }
        default: return py::none();
    }
}

py::object json_text_to_python(const std::string& text) { return to_python(nlohmann::ordered_json::parse(text)); }

std::string python_to_json_text(const py::handle& obj) {
    if (py::isinstance<py::str>(obj)) return obj.cast<std::string>();
    return py::module_::import("json").attr("dumps")(obj).cast<std::string>();
}

// ---- words: a str as on the command line ("abba", "a b b a"), or a sequence of symbol names or
// symbol indices (a list, a tuple, a numpy int array)

Word to_word(const Dfa& d, const py::handle& obj) {
    if (py::isinstance<py::str>(obj)) return take(automata::parse_word(d.alphabet, obj.cast<std::string>()));
    Word w;
    for (const py::handle item : py::iter(obj)) {
        if (py::isinstance<py::str>(item)) {
            const std::string s = item.cast<std::string>();
            std::size_t i = 0;
            while (i < d.alphabet.size() && d.alphabet[i] != s) ++i;
            if (i == d.alphabet.size()) throw LibraryError{make_error("symbol '" + s + "' is not in the alphabet")};
            w.push_back(static_cast<automata::Symbol>(i));
        } else {
            const long long v = item.cast<long long>();
            if (v < 0 || static_cast<std::size_t>(v) >= d.alphabet.size())
                throw LibraryError{make_error("symbol index " + std::to_string(v) + " is outside the alphabet (0.." +
                                              std::to_string(d.alphabet.size() - 1) + ")")};
            w.push_back(static_cast<automata::Symbol>(v));
        }
    }
    return w;
}

std::vector<std::string> alphabet_arg(const std::optional<py::object>& alphabet) {
    if (!alphabet || alphabet->is_none()) return {};
    if (py::isinstance<py::str>(*alphabet)) return take(automata::parse_alphabet(alphabet->cast<std::string>()));
    // A list of symbols: each one a string without a comma (joined below, 'b,c' would become
    // two symbols).
    if (!py::isinstance<py::sequence>(*alphabet))
        throw py::type_error("alphabet: expected a comma-separated string or a list of strings, not " +
                             std::string(py::str(alphabet->get_type().attr("__name__"))));
    std::vector<std::string> v;
    for (const auto& item : alphabet->cast<py::sequence>()) {
        if (!py::isinstance<py::str>(item))
            throw py::type_error("alphabet: every symbol must be a string, not " +
                                 std::string(py::str(item.get_type().attr("__name__"))));
        v.push_back(item.cast<std::string>());
        if (v.back().find(',') != std::string::npos)
            throw LibraryError{make_error("alphabet symbol '" + v.back() + "' contains a comma")};
    }
    std::string csv;
    for (std::size_t i = 0; i < v.size(); ++i) csv += (i ? "," : "") + v[i];
    take(automata::parse_alphabet(csv));  // the same checks (no empty or repeated symbol)
    return v;
}

// ---- languages: a Formula, a formula text, or a Dfa; resolved to the minimal DFA

// The limits of the subregular classes (classify's --sl-max-states, --type-max-states,
// --subregular-max-k, --subregular-max-t, with the CLI's ranges).
automata::algebra::SubregularOptions subregular_options(std::size_t sl_max_states, std::size_t type_max_states, unsigned max_k,
                                                        unsigned max_t, std::size_t max_elements) {
    using C = automata::algebra::SubregularLimitCaps;
    auto check = [](std::size_t v, std::size_t cap, const char* name) {
        if (v < 1 || v > cap) throw LibraryError{make_error(std::string(name) + " must be in 1.." + std::to_string(cap))};
    };
    check(sl_max_states, C::max_pair_states, "sl_max_states");
    check(type_max_states, C::max_type_states, "type_max_states");
    check(max_k, C::max_k, "subregular_max_k");
    check(max_t, C::max_t, "subregular_max_t");
    check(max_elements, C::max_elements, "subregular_max_elements");
    automata::algebra::SubregularOptions o;
    o.max_pair_states = sl_max_states;
    o.max_type_states = type_max_states;
    o.max_k = max_k;
    o.max_t = max_t;
    o.max_elements = max_elements;
    return o;
}

struct Resolved {
    Dfa dfa;
    std::optional<std::string> fragment;
    ltl::Formula formula;  // the formula the language was written as (null for a DFA)
    bool alphabet_inferred = false;  // no alphabet given and not a DFA (docs/SYNTAX.md §5)
};

// As the CLI: an alphabet inferred from the language (none given) of a single symbol is refused
// (docs/SYNTAX.md §5).
void check_alphabet(const std::vector<std::string>& inferred, const std::string& from) {
    if (auto e = automata::inferred_alphabet_error(inferred, from)) throw LibraryError{*e};
}

Resolved resolve_unchecked(const py::handle& language, const std::vector<std::string>& alphabet,
                           std::size_t max_states);

// The language over `alphabet`, or over the symbols it mentions when `alphabet` is empty (then
// refused when that is a single symbol, as `ltlkit` does).
Resolved resolve(const py::handle& language, const std::vector<std::string>& alphabet, std::size_t max_states) {
    Resolved r = resolve_unchecked(language, alphabet, max_states);
    if (r.alphabet_inferred) check_alphabet(r.dfa.alphabet, "the formula");
    return r;
}

Resolved resolve_unchecked(const py::handle& language, const std::vector<std::string>& alphabet,
                           std::size_t max_states) {
    if (py::isinstance<Dfa>(language)) {
        Dfa d = language.cast<Dfa>();
        if (!alphabet.empty()) d = take(automata::with_alphabet(d, alphabet));
        return {automata::minimize(d), std::nullopt, ltl::Formula()};
    }
    if (py::isinstance<Formula>(language)) {
        Formula f = language.cast<Formula>();
        auto sigma = take(automata::formula_alphabet(f, alphabet));
        automata::CompileOptions o;
        o.max_states = max_states;
        Dfa d = without_gil([&] { return take(automata::compile(f, sigma, o)); });
        return {std::move(d), ltl::fragment_of(f).name(), f, alphabet.empty()};
    }
    if (py::isinstance<py::str>(language)) {
        automata::LanguageSpec spec;
        spec.kind = automata::InputKind::Formula;
        spec.text = language.cast<std::string>();
        spec.name = spec.text;
        spec.alphabet = alphabet;
        spec.max_states = max_states;
        automata::Language L = without_gil([&] { return take(automata::load_language(spec)); });
        return {std::move(L.dfa), L.fragment, L.formula ? *L.formula : ltl::Formula(), alphabet.empty()};
    }
    throw py::type_error("a language is a ltlkit.Formula, a formula string or a ltlkit.Dfa");
}

// ---- DFA as Python data

py::list transitions_of(const Dfa& d) {
    py::list rows;
    for (std::size_t q = 0; q < d.num_states(); ++q) {
        py::list row;
        for (std::size_t a = 0; a < d.num_symbols(); ++a) row.append(d.next(static_cast<automata::State>(q), static_cast<automata::Symbol>(a)));
        rows.append(row);
    }
    return rows;
}

py::list accepting_states(const Dfa& d) {
    py::list l;
    for (std::size_t q = 0; q < d.num_states(); ++q)
        if (d.is_accepting(static_cast<automata::State>(q))) l.append(q);
    return l;
}

Dfa make_dfa(std::vector<std::string> alphabet, automata::State initial, const std::vector<automata::State>& accepting,
             const std::vector<std::vector<automata::State>>& transitions) {
    Dfa d;
    d.alphabet = std::move(alphabet);
    d.initial = initial;
    d.accepting.assign(transitions.size(), 0);
    for (auto q : accepting) {
        if (q >= transitions.size())
            throw LibraryError{make_error("accepting state " + std::to_string(q) + " does not exist (" +
                                          std::to_string(transitions.size()) + " states)")};
        d.accepting[q] = 1;
    }
    for (std::size_t q = 0; q < transitions.size(); ++q) {
        if (transitions[q].size() != d.alphabet.size())
            throw LibraryError{make_error("state " + std::to_string(q) + " has " + std::to_string(transitions[q].size()) +
                                          " transitions, the alphabet has " + std::to_string(d.alphabet.size()) + " symbols")};
        d.delta.insert(d.delta.end(), transitions[q].begin(), transitions[q].end());
    }
    if (transitions.empty()) throw LibraryError{make_error("a DFA has at least one state")};
    take(d.validate());
    return d;
}

// ---- a split as compact numpy arrays (docs/PYTHON.md "A balanced dataset in a DataLoader"): the
// symbols of every word one after another (uint8 for up to 256 symbols, else uint16, else uint32),
// offsets [N + 1] into them, and per word its length, label and pair id; the padded [N, W] view
// is built in Python only when asked for (Split.padded).

template <class T>
py::array symbols_as(const automata::Split& s, std::size_t total) {
    py::array_t<T> out(static_cast<py::ssize_t>(total));
    T* p = out.mutable_data();
    for (const auto& e : s.examples)
        for (automata::Symbol x : e.word) *p++ = static_cast<T>(x);
    return out;
}

py::dict split_to_python(const automata::Split& s, std::size_t num_symbols) {
    const auto n = static_cast<py::ssize_t>(s.examples.size());
    py::array_t<std::int64_t> offsets(n + 1), lengths(n), labels(n), pairs(n);
    auto of = offsets.mutable_unchecked<1>();
    auto ln = lengths.mutable_unchecked<1>();
    auto lb = labels.mutable_unchecked<1>();
    auto pr = pairs.mutable_unchecked<1>();
    std::size_t total = 0;
    of(0) = 0;
    for (py::ssize_t i = 0; i < n; ++i) {
        const auto& e = s.examples[static_cast<std::size_t>(i)];
        total += e.word.size();
        of(i + 1) = static_cast<std::int64_t>(total);
        ln(i) = static_cast<std::int64_t>(e.word.size());
        lb(i) = e.label ? 1 : 0;
        pr(i) = e.pair;
    }
    py::dict d;
    d["name"] = s.name;
    d["symbols"] = num_symbols <= 256     ? symbols_as<std::uint8_t>(s, total)
                   : num_symbols <= 65536 ? symbols_as<std::uint16_t>(s, total)
                                          : symbols_as<std::uint32_t>(s, total);
    d["offsets"] = offsets;
    d["lengths"] = lengths;
    d["labels"] = labels;
    d["pairs"] = pairs;
    return d;
}

py::dict dataset_to_python(const automata::Dataset& ds, std::optional<std::int64_t> pad) {
    const std::int64_t p = pad ? *pad : static_cast<std::int64_t>(ds.alphabet.size());
    py::dict splits;
    for (const auto& [name, s] : ds.splits) splits[py::str(name)] = split_to_python(s, ds.alphabet.size());
    py::dict d;
    d["alphabet"] = ds.alphabet;
    d["dfa"] = ds.dfa;
    d["meta"] = json_text_to_python(ds.meta_json);
    d["splits"] = splits;
    d["pad"] = p;
    return d;
}

// ---- classification as Python data, key for key as `ltlkit classify --json`

// `ltlkit classify --json`'s object (automata/algebra/classification_json.hh) as Python data, with
// the DFA beside it; the subregular classes follow (added by the caller), as in the CLI.
py::dict classification_to_python(const automata::algebra::Classification& c, const Dfa& dfa,
                                  const std::optional<std::string>& fragment, unsigned max_k, bool alphabet_inferred) {
    automata::algebra::ClassificationJsonContext context;
    context.max_k = max_k;
    context.alphabet_inferred = alphabet_inferred;
    context.fragment = fragment;
    py::dict d = to_python(automata::algebra::classification_to_json(c, dfa, context));
    d["dfa"] = dfa;
    return d;
}

std::string repr_formula(Formula f) { return "ltlkit.Formula(" + py::repr(py::str(ltl::to_string(f))).cast<std::string>() + ")"; }

}  // namespace

PYBIND11_MODULE(_ltlkit, m) {
    m.doc() = "ltlkit: past-LTL formulas, minimal DFAs, language classes with certificates, exact datasets";
    m.attr("__version__") = LTLKIT_VERSION;  // CMake's project(VERSION)

    // Exceptions. The classes keep a reference for the module's lifetime.
    g_error = PyErr_NewExceptionWithDoc("ltlkit.Error", "An ltlkit error: str() is the CLI's message; exit_code, "
                                        "message, line, column, origin, rendered (with the caret line).", PyExc_Exception, nullptr);
    py::object error = py::reinterpret_borrow<py::object>(g_error);
    auto subclass = [&](const char* name, PyObject* builtin, const char* doc) {
        py::tuple bases = py::make_tuple(error, py::reinterpret_borrow<py::object>(builtin));
        return PyErr_NewExceptionWithDoc(name, doc, bases.ptr(), nullptr);
    };
    g_input_error = subclass("ltlkit.InputError", PyExc_ValueError, "Bad input (the CLI exits with 2).");
    g_limit_error = subclass("ltlkit.LimitError", PyExc_RuntimeError, "A limit was hit (the CLI exits with 3).");
    g_io_error = subclass("ltlkit.IOError", PyExc_OSError, "An I/O failure (the CLI exits with 4).");
    m.attr("Error") = error;
    m.attr("InputError") = py::reinterpret_borrow<py::object>(g_input_error);
    m.attr("LimitError") = py::reinterpret_borrow<py::object>(g_limit_error);
    m.attr("IOError") = py::reinterpret_borrow<py::object>(g_io_error);
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const LibraryError& e) {
            raise_library_error(e.error);
        } catch (const nlohmann::json::exception& e) {
            raise_library_error(make_error(std::string("malformed JSON: ") + e.what()));
        }
    });

    // ---- formulas
    py::enum_<ltl::Op>(m, "Op")
        .value("TRUE", ltl::Op::True).value("FALSE", ltl::Op::False).value("ATOM", ltl::Op::Atom)
        .value("NOT", ltl::Op::Not).value("AND", ltl::Op::And).value("OR", ltl::Op::Or)
        .value("IMPLIES", ltl::Op::Implies).value("IFF", ltl::Op::Iff).value("SINCE", ltl::Op::Since)
        .value("PAST", ltl::Op::Past).value("YESTERDAY", ltl::Op::Yesterday)
        .value("BOUNDED_YESTERDAY", ltl::Op::BoundedYesterday).value("HISTORICALLY", ltl::Op::Historically);

    py::class_<Formula>(m, "Formula", "An immutable, hash-consed past-LTL formula (equal formulas are one node).")
        .def(py::init([](const std::string& text) { return take(ltl::parse_formula(text)); }), py::arg("text"),
             "Parses a formula (same as parse_formula).")
        .def_property_readonly("op", &Formula::op)
        .def_property_readonly("name", [](Formula f) -> py::object {
            return f.op() == ltl::Op::Atom ? py::object(py::str(f.name())) : py::object(py::none()); })
        .def_property_readonly("k", [](Formula f) -> py::object {
            return f.op() == ltl::Op::BoundedYesterday ? py::object(py::int_(f.k())) : py::object(py::none()); })
        .def_property_readonly("children", [](Formula f) {
            std::vector<Formula> c;
            for (std::size_t i = 0; i < f.arity(); ++i) c.push_back(f.child(i));
            return c; })
        .def_static("tt", &Formula::tt)
        .def_static("ff", &Formula::ff)
        .def_static("atom", [](const std::string& name) {
            // only what the parser reads back, so that the formula's text round-trips (pickling)
            if (!ltl::is_atom_name(name))
                throw LibraryError{make_error("symbol '" + name + "' is not a formula atom (a lowercase letter, then "
                                              "lowercase letters, digits or '_'; not true or false)")};
            return Formula::atom(name); }, py::arg("name"))
        .def_static("neg", &Formula::neg)
        .def_static("conj", &Formula::conj)
        .def_static("disj", &Formula::disj)
        .def_static("implies", &Formula::implies)
        .def_static("iff", &Formula::iff)
        .def_static("since", &Formula::since)
        .def_static("past", &Formula::past)
        .def_static("yesterday", &Formula::yesterday)
        .def_static("bounded_yesterday", [](Formula f, long long k) {
            if (k < 1 || k > static_cast<long long>(ltl::kMaxWindow))
                throw LibraryError{make_error("Y<=k needs 1 <= k <= " + std::to_string(ltl::kMaxWindow) + ", not " +
                                              std::to_string(k))};
            return Formula::bounded_yesterday(f, k); }, py::arg("formula"), py::arg("k"))
        .def_static("historically", &Formula::historically)
        .def("is_temporal", &Formula::is_temporal)
        .def(py::pickle([](Formula f) { return py::make_tuple(ltl::to_string(f)); },
                        [](const py::tuple& t) { return take(ltl::parse_formula(t[0].cast<std::string>())); }))
        .def("__str__", [](Formula f) { return ltl::to_string(f); })
        .def("__repr__", &repr_formula)
        .def("__eq__", [](Formula a, Formula b) { return a == b; })
        .def("__hash__", [](Formula f) { return std::hash<Formula>()(f); });
    m.def("parse_formula", [](const std::string& text) { return take(ltl::parse_formula(text)); }, py::arg("text"),
          "Parses a formula of docs/SYNTAX.md §2; errors (InputError) carry line:column.");
    m.def("to_string", [](Formula f) { return ltl::to_string(f); }, "ASCII syntax that parses back to the same formula.");
    m.def("to_unicode", [](Formula f) { return ltl::to_unicode(f); }, "Unicode operator forms (¬ ∧ ∨ → ↔ ⊤ ⊥ Y≤k).");
    m.def("atoms", [](Formula f) { return ltl::atoms(f); });
    m.def("dag_size", [](Formula f) { return ltl::dag_size(f); });
    m.def("tree_size", [](Formula f) { return ltl::tree_size(f); });
    m.def("temporal_depth", [](Formula f) { return ltl::temporal_depth(f); });
    m.def("subformulas_postorder", [](Formula f) { return ltl::subformulas_postorder(f); }, "Children before parents.");
    m.def("fragment_of", [](Formula f) { return ltl::fragment_of(f).name(); }, "The smallest fragment (docs/CLASSES.md §1), e.g. 'LTL[P,Y]'.");
    m.def("holds_at_eos", [](Formula f, const std::vector<std::string>& word) { return ltl::holds_at_eos(f, word); },
          py::arg("formula"), py::arg("word"), "Direct semantics: does the word (a list of symbol names) satisfy f at EOS?");

    // ---- DFAs
    py::class_<Dfa>(m, "Dfa", "A complete DFA over an ordered alphabet (docs/SYNTAX.md §9 JSON: alphabet, initial, accepting, transitions).")
        .def(py::init(&make_dfa), py::arg("alphabet"), py::arg("initial"), py::arg("accepting"), py::arg("transitions"))
        .def_readonly("alphabet", &Dfa::alphabet)
        .def_readonly("initial", &Dfa::initial)
        .def_property_readonly("num_states", &Dfa::num_states)
        .def_property_readonly("states", [](const Dfa& d) { return d.num_states(); })
        .def_property_readonly("accepting", &accepting_states, "Accepting states, ascending.")
        .def_property_readonly("transitions", &transitions_of, "transitions[q][a]: the successor of q on alphabet[a].")
        .def("next", [](const Dfa& d, long long state, long long symbol) {
            if (state < 0 || static_cast<std::size_t>(state) >= d.num_states())
                throw py::index_error("state " + std::to_string(state) + " is not a state of the DFA (0.." +
                                      std::to_string(d.num_states() - 1) + ")");
            if (symbol < 0 || static_cast<std::size_t>(symbol) >= d.num_symbols())
                throw py::index_error("symbol index " + std::to_string(symbol) + " is outside the alphabet (0.." +
                                      std::to_string(d.num_symbols() - 1) + ")");
            return d.next(static_cast<automata::State>(state), static_cast<automata::Symbol>(symbol)); },
            py::arg("state"), py::arg("symbol"))
        .def("run", [](const Dfa& d, const py::object& word) { return d.run(d.initial, to_word(d, word)); }, py::arg("word"),
             "The state reached from the initial state.")
        .def("accepts", [](const Dfa& d, const py::object& word) { return d.accepts(to_word(d, word)); }, py::arg("word"),
             "word: a str as on the command line ('abba' or 'a b b a'), or a sequence of symbol names or indices.")
        .def("format_word", [](const Dfa& d, const py::object& word) { return automata::format_word(d.alphabet, to_word(d, word)); })
        .def("to_json", [](const Dfa& d) { return automata::to_json(d); })
        .def("to_dot", [](const Dfa& d, bool hide_sink) { return automata::to_dot(d, {hide_sink}); }, py::arg("hide_sink") = false)
        .def_static("from_json", [](const std::string& text) { return take(automata::dfa_from_json(text)); }, py::arg("text"))
        .def("__eq__", [](const Dfa& a, const Dfa& b) { return a == b; })
        .def(py::pickle([](const Dfa& d) { return py::make_tuple(automata::to_json(d)); },
                        [](const py::tuple& t) { return take(automata::dfa_from_json(t[0].cast<std::string>())); }))
        .def("__repr__", [](const Dfa& d) {
            std::string s = "<ltlkit.Dfa: " + std::to_string(d.num_states()) + " states over {";
            for (std::size_t i = 0; i < d.alphabet.size(); ++i) s += (i ? "," : "") + d.alphabet[i];
            return s + "}>"; });
    m.def("read_dfa_file", [](const std::string& path) { return take(automata::read_dfa_file(path)); }, py::arg("path"));
    m.def("minimize", [](const Dfa& d) { return without_gil([&] { return automata::minimize(d); }); },
          "Hopcroft's algorithm; the result is minimal, complete and canonically numbered.");
    m.def("canonical", &automata::canonical);
    m.def("is_minimal", &automata::is_minimal);
    m.def("complement", &automata::complement);
    m.def("formula_alphabet", [](Formula f, const std::optional<py::object>& alphabet) {
        return take(automata::formula_alphabet(f, alphabet_arg(alphabet))); }, py::arg("formula"), py::arg("alphabet") = py::none());

    m.def("compile", [](const py::object& formula, const std::optional<py::object>& alphabet, std::size_t max_states, bool minimize) {
        const auto sigma = alphabet_arg(alphabet);
        if (minimize) return resolve(formula, sigma, max_states).dfa;
        Formula f = py::isinstance<Formula>(formula) ? formula.cast<Formula>() : take(ltl::parse_formula(formula.cast<std::string>()));
        automata::CompileOptions o;
        o.max_states = max_states;
        o.minimize = false;
        auto resolved = take(automata::formula_alphabet(f, sigma));
        if (sigma.empty()) check_alphabet(resolved, "the formula");
        return without_gil([&] { return take(automata::compile(f, resolved, o)); });
    }, py::arg("formula"), py::arg("alphabet") = py::none(), py::arg("max_states") = 1'000'000, py::arg("minimize") = true,
       "Formula (or formula text) -> its minimal DFA by the past-time monitor construction.");
    m.def("compile_regex", [](const std::string& regex, const std::optional<py::object>& alphabet, std::size_t max_states) {
        automata::LanguageSpec spec;
        spec.kind = automata::InputKind::Regex;
        spec.text = regex;
        spec.alphabet = alphabet_arg(alphabet);
        spec.max_states = max_states;
        Dfa d = without_gil([&] { return take(automata::load_language(spec)).dfa; });
        if (spec.alphabet.empty()) check_alphabet(d.alphabet, "the regex");
        return d;
    }, py::arg("regex"), py::arg("alphabet") = py::none(), py::arg("max_states") = 1'000'000,
       "Extended regex -> minimal DFA (Brzozowski derivatives).");
    m.def("accepts", [](const py::object& language, const py::object& word, const std::optional<py::object>& alphabet) {
        Dfa d = resolve(language, alphabet_arg(alphabet), 1'000'000).dfa;
        return d.accepts(to_word(d, word));
    }, py::arg("language"), py::arg("word"), py::arg("alphabet") = py::none());
    m.def("distinguishing_word", [](const py::object& a, const py::object& b, const std::optional<py::object>& alphabet,
                                    std::size_t max_states) -> py::object {
        const auto sigma = alphabet_arg(alphabet);
        // An error of one side says which, as `ltlkit equiv` does.
        auto side = [&](const py::object& language, const std::vector<std::string>& over, const char* name) {
            try {
                return resolve_unchecked(language, over, max_states);
            } catch (LibraryError& e) {
                if (e.error.origin.empty() && e.error.line == 0)
                    e.error.message = std::string("language ") + name + ": " + e.error.message;
                else
                    e.error.message += std::string(" (in language ") + name + ")";
                throw;
            }
        };
        Resolved ra = side(a, sigma, "A"), rb = side(b, sigma, "B");
        // As `ltlkit equiv`: without an alphabet, both sides over the union of their symbols
        // (sorted when both were; a formula is compiled again over it, a DFA extended), refused
        // when it is inferred (not two DFAs) and a single symbol.
        const bool inferred = ra.alphabet_inferred || rb.alphabet_inferred;
        if (sigma.empty() && ra.dfa.alphabet != rb.dfa.alphabet) {
            const auto &sa = ra.dfa.alphabet, &sb = rb.dfa.alphabet;
            std::vector<std::string> u = sa;
            for (const auto& s : sb)
                if (std::find(u.begin(), u.end(), s) == u.end()) u.push_back(s);
            if (std::is_sorted(sa.begin(), sa.end()) && std::is_sorted(sb.begin(), sb.end())) std::sort(u.begin(), u.end());
            ra = side(a, u, "A");
            rb = side(b, u, "B");
        }
        if (inferred) check_alphabet(ra.dfa.alphabet, "the two languages");
        const Dfa &da = ra.dfa, &db = rb.dfa;
        bool over = false;
        auto w = without_gil([&] { return automata::distinguishing_word(da, db, max_states, &over); });
        if (over)
            throw LibraryError{limit_error("comparing the two languages builds more than " + std::to_string(max_states) +
                                           " pairs of states; raise max_states to compare them")};
        if (!w) return py::none();
        return py::str(automata::format_word(da.alphabet, *w));
    }, py::arg("a"), py::arg("b"), py::arg("alphabet") = py::none(), py::arg("max_states") = 1'000'000,
       "A shortest word on which the languages differ (as a str), or None when they are equal.");

    // ---- classification and certificates
    m.def("classify", [](const py::object& language, const std::optional<py::object>& alphabet, unsigned max_k,
                         std::size_t max_elements, std::size_t formula_cap, std::size_t window_budget, unsigned probe_depth,
                         std::size_t probe_states, std::size_t max_states, double window_time, std::size_t window_memory,
                         const std::string& window_clock, std::uint64_t window_work, std::size_t sl_max_states,
                         std::size_t type_max_states, unsigned subregular_max_k, unsigned subregular_max_t,
                         std::size_t subregular_max_elements) {
        const auto so = subregular_options(sl_max_states, type_max_states, subregular_max_k, subregular_max_t, subregular_max_elements);
        if (max_k < 1 || max_k > 64) throw LibraryError{make_error("max_k must be in 1..64")};
        if (!(window_time >= 0) || window_time > 1e6)
            throw LibraryError{make_error("window_time must be a number of seconds in 0..1000000 (0: no time bound)")};
        if (window_memory > (std::size_t(1) << 24))
            throw LibraryError{make_error("window_memory must be in 0..16777216 MiB (0: no memory bound)")};
        if (window_clock != "wall" && window_clock != "cpu")
            throw LibraryError{make_error("window_clock must be 'wall' or 'cpu', not '" + window_clock + "'")};
        Resolved r = resolve(language, alphabet_arg(alphabet), max_states);
        automata::algebra::ClassifyOptions o;
        o.max_k = max_k;
        o.max_elements = max_elements;
        o.formula_cap = formula_cap;
        o.window_budget = window_budget;
        o.probe_depth = probe_depth;
        o.probe_states = probe_states;
        o.source = r.formula;  // as the CLI does: a formula already in a window fragment is its own certificate
        o.window_time_s = window_time;
        o.window_work = window_work;
        o.window_memory_bytes = window_memory << 20;
        const auto clock = window_clock == "cpu" ? automata::algebra::BudgetClockKind::ThreadCpu
                                                 : automata::algebra::BudgetClockKind::Wall;
        auto c = without_gil([&] {
            // The clock is the calling thread's: set it on the thread that classifies, restore it after.
            const auto before = automata::algebra::budget_clock();
            automata::algebra::set_budget_clock(clock);
            auto result = automata::algebra::classify(r.dfa, o);
            automata::algebra::set_budget_clock(before);
            return take(std::move(result));
        });
        py::dict out = classification_to_python(c, r.dfa, r.fragment, max_k, r.alphabet_inferred);
        // As `classify --json`: the subregular classes (docs/SUBREGULAR.md).
        auto sub = without_gil([&] { return automata::algebra::classify_subregular(r.dfa, so); });
        out["subregular"] = to_python(automata::algebra::subregular_summary_json(sub));
        return out;
    }, py::arg("language"), py::arg("alphabet") = py::none(), py::arg("max_k") = 4, py::arg("max_elements") = 1'000'000,
       py::arg("formula_cap") = 200'000, py::arg("window_budget") = 200'000, py::arg("probe_depth") = 8,
       py::arg("probe_states") = 500'000, py::arg("max_states") = 1'000'000, py::arg("window_time") = 0.0,
       py::arg("window_memory") = 400, py::arg("window_clock") = "wall",
       py::arg("window_work") = automata::algebra::ClassifyOptions::kDefaultWindowWork,
       py::arg("sl_max_states") = automata::algebra::SubregularOptions{}.max_pair_states,
       py::arg("type_max_states") = automata::algebra::SubregularOptions{}.max_type_states,
       py::arg("subregular_max_k") = automata::algebra::SubregularOptions{}.max_k,
       py::arg("subregular_max_t") = automata::algebra::SubregularOptions{}.max_t,
       py::arg("subregular_max_elements") = automata::algebra::SubregularOptions{}.max_elements,
       "The classes of docs/CLASSES.md §2 with certificates and the predictions per architecture (the keys of `classify --json`).\n"
       "sl_max_states, type_max_states, subregular_max_k, subregular_max_t and subregular_max_elements are classify's\n"
       "--sl-max-states, --type-max-states, --subregular-max-k, --subregular-max-t and --subregular-max-elements\n"
       "(the limits of the subregular classes, docs/SUBREGULAR.md §4).\n"
       "window_work (search steps), window_time (seconds), window_memory (MiB) and window_clock ('wall' or 'cpu') are\n"
       "classify's --window-work, --window-time, --window-memory and --window-clock; 0 removes a bound. The default\n"
       "bound is in work, so the answers do not depend on the machine's speed or load.");
    m.def("classify_subregular", [](const py::object& language, const std::optional<py::object>& alphabet, std::size_t max_states,
                                    std::size_t sl_max_states, std::size_t type_max_states, unsigned subregular_max_k,
                                    unsigned subregular_max_t, std::size_t subregular_max_elements) {
        const auto so = subregular_options(sl_max_states, type_max_states, subregular_max_k, subregular_max_t, subregular_max_elements);
        Resolved r = resolve(language, alphabet_arg(alphabet), max_states);
        auto ds = without_gil([&] { return automata::algebra::classify_subregular(r.dfa, so); });
        nlohmann::ordered_json j = automata::algebra::subregular_summary_json(ds);
        for (const auto& d : ds) j[to_string(d.id)]["certificate"] = nlohmann::ordered_json::parse(automata::algebra::subregular_certificate_json(d, r.dfa));
        return to_python(j);
    }, py::arg("language"), py::arg("alphabet") = py::none(), py::arg("max_states") = 1'000'000,
       py::arg("sl_max_states") = automata::algebra::SubregularOptions{}.max_pair_states,
       py::arg("type_max_states") = automata::algebra::SubregularOptions{}.max_type_states,
       py::arg("subregular_max_k") = automata::algebra::SubregularOptions{}.max_k,
       py::arg("subregular_max_t") = automata::algebra::SubregularOptions{}.max_t,
       py::arg("subregular_max_elements") = automata::algebra::SubregularOptions{}.max_elements,
       "The subregular classes of docs/SUBREGULAR.md (finite, cofinite, SL, SP, LT, PT, LTT, TSL, DA,\n"
       "aperiodic_commutative): {name: {member, params, fact, prediction, certificate}}, as `classify --json`'s\n"
       "\"subregular\" object plus the certificates, which check_certificate re-verifies.");
    // ---- suites (docs/SUBREGULAR.md §5, §5b): `ltlkit suite`'s draws, the DFAs returned as Dfa objects
    m.def("prediction_strata", [] { return to_python(automata::algebra::prediction_strata_json()); },
          "The named strata of the predictions, as `ltlkit suite --list-strata --json`.");
    m.def("suite", [](const std::vector<std::string>& classes, const std::vector<std::string>& not_classes,
                      const std::string& stratum, const std::optional<py::object>& alphabet, std::size_t count,
                      std::uint64_t seed, std::size_t min_states, std::size_t max_states, std::size_t max_draws,
                      unsigned max_k, unsigned k, unsigned t, bool proper_tier, const std::string& name,
                      const std::string& fragment, int depth) {
        namespace alg = automata::algebra;
        const auto sigma = alphabet ? alphabet_arg(alphabet) : std::vector<std::string>{"a", "b"};
        // One subregular class alone: the subregular draw, as the CLI (docs/SUBREGULAR.md §5).
        if (classes.size() == 1 && not_classes.empty() && stratum.empty() && max_k == 0 && fragment.empty() &&
            alg::is_subregular_class(classes[0])) {
            alg::SuiteRequest r;
            r.cls = classes[0];
            if (k) r.k = k;
            if (t) r.t = t;
            r.alphabet = sigma, r.count = count, r.seed = seed, r.min_states = min_states, r.max_states = max_states;
            r.max_draws = max_draws, r.proper_tier = proper_tier;
            auto drawn = without_gil([&] { return take(alg::draw_suite(r)); });
            py::list langs;
            for (std::size_t i = 0; i < drawn.dfas.size(); ++i) {
                py::dict l;
                l["name"] = (name.empty() ? r.cls + (r.k ? std::to_string(*r.k) : std::string()) : name) + "-" + std::to_string(i + 1);
                l["params"] = to_python(drawn.decisions[i].params);
                l["states"] = drawn.dfas[i].num_states();
                l["dfa"] = py::cast(drawn.dfas[i]);
                langs.append(l);
            }
            py::dict out;
            out["class"] = r.cls, out["count"] = drawn.dfas.size(), out["draws"] = drawn.draws, out["languages"] = langs;
            return out;
        }
        if (k || t || proper_tier) throw LibraryError{make_error("k, t and proper_tier are options of a suite of one subregular class only")};
        alg::PredictionSuiteRequest r;
        r.constraints = take(alg::suite_constraints(stratum, classes, not_classes));
        r.alphabet = sigma, r.count = count, r.seed = seed, r.min_states = min_states, r.max_states = max_states;
        r.max_draws = max_draws, r.max_k = max_k;
        if (!fragment.empty()) r.formulas = alg::FormulaSource{take(alg::parse_suite_fragment(fragment)), depth};
        auto drawn = without_gil([&] { return take(alg::draw_prediction_suite(r)); });
        const alg::PredictionStratum* st = stratum.empty() ? nullptr : alg::find_stratum(stratum);
        py::dict out = to_python(alg::prediction_suite_json(r, drawn, st, name.empty() ? (st ? st->name : "suite") : name));
        py::list langs = out["languages"];
        for (std::size_t i = 0; i < drawn.dfas.size(); ++i) langs[i]["dfa"] = py::cast(drawn.dfas[i]);
        return out;
    }, py::arg("classes") = std::vector<std::string>{}, py::arg("not_classes") = std::vector<std::string>{},
       py::arg("stratum") = "", py::arg("alphabet") = py::none(), py::arg("count") = 10, py::arg("seed") = 1,
       py::arg("min_states") = 1, py::arg("max_states") = 6, py::arg("max_draws") = 200'000, py::arg("max_k") = 0,
       py::arg("k") = 0, py::arg("t") = 0, py::arg("proper_tier") = false, py::arg("name") = "",
       py::arg("fragment") = "", py::arg("depth") = 3,
       "Random minimal DFAs, as `ltlkit suite --json` with each language's Dfa under \"dfa\" (no files): classes /\n"
       "not_classes / stratum are --class / --not / --stratum (docs/SUBREGULAR.md §5b; one subregular class alone\n"
       "is the subregular draw of §5 with k, t, proper_tier). Languages are named NAME-1, NAME-2, ... (default: the\n"
       "stratum, else 'suite'; the class and k for a subregular suite). fragment='P,Y' etc. is --from formulas\n"
       "--fragment (each language then has its \"formula\"), depth --depth. The same arguments give the same suite.");
    // ---- sweeps (docs/PROTOCOL.md "Sweeps"): the folders of `ltlkit sweep` read back by the library's
    // functions (torch-free). The sweep itself trains through `ltlkit verify`, which the module does not
    // have, so it is the CLI's only.
    m.def("sweep_report", [](const std::string& dir) {
        auto rep = without_gil([&] { return take(neural::verify::build_sweep_report(dir)); });
        return json_text_to_python(rep.json);
    }, py::arg("dir"),
       "The report of the sweep folder dir, rebuilt from its level folders (sweep.md and sweep.json written\n"
       "again), as the dict that `ltlkit sweep --report DIR --json` prints.");
    m.def("sweep_languages", [](const std::string& dir) {
        namespace nv = neural::verify;
        auto langs = without_gil([&] { return take(nv::read_sweep_languages(dir)); });
        py::list out;
        for (const auto& l : langs) {
            py::dict d = json_text_to_python(nv::sweep_language_json(l));
            d["dfa"] = py::cast(take(automata::read_dfa_file((std::filesystem::path(dir) / l.file).string())));
            out.append(d);
        }
        return out;
    }, py::arg("dir"),
       "The languages of the sweep folder dir, as its languages.json (name, stratum, alphabet, states,\n"
       "generator, file, archs, predictions, windows_note) with each language's minimal DFA under \"dfa\".");
    m.def("check_certificate", [](const py::object& certificate) {
        const std::string text = python_to_json_text(certificate);
        std::string explanation;
        bool holds = without_gil([&] { return take(automata::algebra::check_certificate_json(text, &explanation)); });
        return py::make_tuple(holds, explanation);
    }, py::arg("certificate"), "Re-verifies a certificate (a dict or JSON text): (holds, explanation).");

    // ---- exact uniform sampling
    py::class_<automata::Sampler>(m, "Sampler", "Exact uniform sampling of words of a given length and label.")
        .def(py::init([](const py::object& language, std::size_t max_length, std::size_t max_table_cells,
                         const std::optional<py::object>& alphabet) {
            Dfa d = resolve(language, alphabet_arg(alphabet), 1'000'000).dfa;
            return without_gil([&] { return take(automata::Sampler::create(d, max_length, max_table_cells)); });
        }), py::arg("language"), py::arg("max_length"), py::arg("max_table_cells") = 0, py::arg("alphabet") = py::none())
        .def_property_readonly("dfa", &automata::Sampler::dfa)
        .def_property_readonly("max_length", &automata::Sampler::max_length)
        .def("count", [](const automata::Sampler& s, std::size_t n, bool label) {
            if (n > s.max_length()) throw LibraryError{make_error("length " + std::to_string(n) + " is above max_length " + std::to_string(s.max_length()))};
            return py::int_(py::str(s.count_exact(n, label)));
        }, py::arg("length"), py::arg("label"), "The exact number of words of this length and label.")
        .def("sample", [](const automata::Sampler& s, std::size_t n, bool label, std::size_t count, std::uint64_t seed) {
            if (n > s.max_length()) throw LibraryError{make_error("length " + std::to_string(n) + " is above max_length " + std::to_string(s.max_length()))};
            if (count > 0 && !s.has_words(n, label))
                throw LibraryError{make_error("no " + std::string(label ? "accepted" : "rejected") + " word of length " + std::to_string(n))};
            std::vector<Word> words = without_gil([&] {
                std::vector<Word> out;
                out.reserve(count);
                automata::Rng rng(seed);
                InterruptPoll poll;
                for (std::size_t i = 0; i < count; ++i) {
                    out.push_back(s.sample(n, label, rng));
                    if (i % 256 == 255) poll();
                }
                return out;
            });
            py::array_t<std::int64_t> a({static_cast<py::ssize_t>(count), static_cast<py::ssize_t>(n)});
            auto v = a.mutable_unchecked<2>();
            for (std::size_t i = 0; i < count; ++i)
                for (std::size_t j = 0; j < n; ++j) v(i, j) = words[i][j];
            return a;
        }, py::arg("length"), py::arg("label"), py::arg("count") = 1, py::arg("seed") = 1,
           "count words drawn independently and uniformly among the words of this length and label: int64 array [count, length].")
        .def("enumerate", [](const automata::Sampler& s, std::size_t n, bool label, std::size_t limit) {
            if (n > s.max_length()) throw LibraryError{make_error("length " + std::to_string(n) + " is above max_length " + std::to_string(s.max_length()))};
            return s.enumerate(n, label, limit);
        }, py::arg("length"), py::arg("label"), py::arg("limit") = 1000)
        .def_property_readonly("count_method", &automata::Sampler::count_method);

    // ---- datasets
    m.def("generate_dataset", [](const py::object& language, const std::string& dir, const std::string& train,
                                 const std::string& test, std::size_t per_length, std::size_t boundary_per_length,
                                 std::uint64_t seed, const std::string& format, bool force, std::size_t max_table_cells,
                                 const std::optional<std::int64_t>& pad, const std::optional<py::object>& alphabet) {
        Resolved r = resolve(language, alphabet_arg(alphabet), 1'000'000);
        automata::DatasetOptions o;
        o.train = take(automata::parse_length_range(train));
        o.test = take(automata::parse_length_range(test));
        if (per_length == 0) throw LibraryError{make_error("per_length must be at least 1")};
        o.per_length = per_length;
        o.boundary_per_length = boundary_per_length;
        o.seed = seed;
        o.format = take(automata::parse_dataset_format(format));
        o.force = force;
        o.max_table_cells = max_table_cells;
        o.language_kind = py::isinstance<Dfa>(language) ? "dfa" : "formula";
        o.language_name = o.language_text =
            py::isinstance<Dfa>(language) ? std::string("<dfa>") : py::str(language).cast<std::string>();
        nlohmann::ordered_json extra;
        if (r.fragment) extra["fragment"] = *r.fragment;
        // As `ltlkit generate --no-adversarial`, so both write the same bytes for the same arguments.
        extra["adversarial"] = "disabled (--no-adversarial)";
        o.extra_meta_json = extra.dump();
        auto poll = std::make_shared<InterruptPoll>();
        o.progress = [poll](std::uint64_t, std::uint64_t) { (*poll)(); };
        automata::Dataset ds = without_gil([&] {
            take(automata::generate_dataset(r.dfa, dir, o));
            return take(automata::read_dataset(dir, true));
        });
        return dataset_to_python(ds, pad);
    }, py::arg("language"), py::arg("dir"), py::arg("train") = "1:40", py::arg("test") = "41:500", py::arg("per_length") = 512,
       py::arg("boundary_per_length") = 16, py::arg("seed") = 1, py::arg("format") = "tsv", py::arg("force") = false,
       py::arg("max_table_cells") = 0, py::arg("pad") = py::none(), py::arg("alphabet") = py::none(),
       "Writes the dataset of `ltlkit generate` into dir and returns it read back (see ltlkit.generate_dataset).");
    // ---- receptive-field ceilings (docs/CEILING.md)
    m.def("ceiling", [](const py::object& language, const std::string& arch, unsigned layers, const std::string& distribution,
                        const std::optional<std::string>& lengths, std::size_t per_length, const std::optional<py::object>& alphabet,
                        std::size_t max_dp_states, double time_limit) {
        automata::CeilingQuery q;
        q.arch = arch;
        q.layers = layers;
        q.distribution = take(automata::parse_ceiling_distribution(distribution));
        if (q.distribution == automata::CeilingDistribution::Empirical)
            throw LibraryError{make_error("distribution 'empirical' takes a list of words: use ltlkit.empirical_ceiling")};
        q.lengths = take(automata::parse_length_range(
            lengths ? *lengths : q.distribution == automata::CeilingDistribution::Test ? "41:500" : "1:40"));
        if (per_length < 1) throw LibraryError{make_error("per_length must be at least 1")};
        q.per_length = per_length;
        if (max_dp_states < 1) throw LibraryError{make_error("max_dp_states must be at least 1")};
        q.max_states = max_dp_states;
        if (!(time_limit >= 0) || time_limit > 1e6)
            throw LibraryError{make_error("time_limit must be a number of seconds in 0..1000000 (0: no limit)")};
        q.max_seconds = time_limit;
        Resolved r = resolve(language, alphabet_arg(alphabet), 1'000'000);
        auto res = without_gil([&] { return take(automata::receptive_field_ceiling(r.dfa, q)); });
        return json_text_to_python(automata::ceiling_to_json(res));
    }, py::arg("language"), py::arg("arch"), py::arg("layers") = 2, py::arg("distribution") = "training",
       py::arg("lengths") = py::none(), py::arg("per_length") = 512, py::arg("alphabet") = py::none(),
       py::arg("max_dp_states") = 4'000'000, py::arg("time_limit") = 120.0,
       "The exact best accuracy any L-layer k-local NoPE recognizer reaches on the distribution (the dict of\n"
       "`ltlkit ceiling --json`); lengths default to 1:40 (41:500 for 'test'). Bounds when over budget.");
    m.def("empirical_ceiling", [](const py::object& words, const std::vector<int>& labels, const py::object& alphabet,
                                  const std::string& arch, unsigned layers, const std::string& weighting) {
        const auto sigma = alphabet_arg(alphabet);
        if (sigma.empty()) throw LibraryError{make_error("empirical_ceiling needs the alphabet")};
        Dfa shape;  // only its alphabet is read by to_word
        shape.alphabet = sigma;
        std::vector<automata::Example> sample;
        for (const py::handle w : py::iter(words)) {
            automata::Example e;
            e.word = to_word(shape, w);
            sample.push_back(std::move(e));
        }
        if (sample.size() != labels.size())
            throw LibraryError{make_error("words and labels differ in length (" + std::to_string(sample.size()) + " vs " +
                                          std::to_string(labels.size()) + ")")};
        for (std::size_t i = 0; i < labels.size(); ++i) {
            if (labels[i] != 0 && labels[i] != 1)
                throw LibraryError{make_error("label " + std::to_string(i) + " is " + std::to_string(labels[i]) + ", not 0 or 1")};
            sample[i].label = labels[i] == 1;
        }
        automata::CeilingQuery q;
        q.arch = arch;
        q.layers = layers;
        q.distribution = automata::CeilingDistribution::Empirical;
        q.weighting = take(automata::parse_ceiling_weighting(weighting));
        auto res = without_gil([&] { return take(automata::empirical_ceiling(sample, sigma.size(), q)); });
        return json_text_to_python(automata::ceiling_to_json(res));
    }, py::arg("words"), py::arg("labels"), py::arg("alphabet"), py::arg("arch"), py::arg("layers") = 2,
       py::arg("weighting") = "words",
       "The exact best accuracy of any L-layer k-local NoPE recognizer on exactly these words (0/1 labels).");
    m.def("read_dataset", [](const std::string& dir, bool check_labels, const std::optional<std::int64_t>& pad) {
        automata::Dataset ds = without_gil([&] { return take(automata::read_dataset(dir, check_labels)); });
        return dataset_to_python(ds, pad);
    }, py::arg("dir"), py::arg("check_labels") = true, py::arg("pad") = py::none());
}
