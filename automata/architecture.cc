#include "automata/architecture.hh"

#include <optional>

namespace ltlkit::automata {

std::string to_string(const Architecture& arch) {
    switch (arch.kind) {
        case Architecture::Kind::Global: return "global";
        case Architecture::Kind::Local: return "local-" + std::to_string(arch.k);
        case Architecture::Kind::Hybrid: return "hybrid-" + std::to_string(arch.k);
        case Architecture::Kind::Lstm: return "lstm";
    }
    return "global";
}

Result<Architecture> parse_architecture(const std::string& name) {
    Architecture a;
    if (name == "global") return a;
    if (name == "lstm") {
        a.kind = Architecture::Kind::Lstm;
        return a;
    }
    auto with_k = [&](const std::string& prefix, Architecture::Kind kind) -> std::optional<Result<Architecture>> {
        if (name.rfind(prefix, 0) != 0) return std::nullopt;
        const std::string num = name.substr(prefix.size());
        // K in plain decimal: "hybrid-01" is not a name of hybrid-1
        if (num.empty() || num.size() > 6 || num.find_first_not_of("0123456789") != std::string::npos ||
            (num.size() > 1 && num[0] == '0'))
            return Result<Architecture>(make_error("architecture '" + name + "': expected " + prefix +
                                                   "K with an integer K >= 1"));
        int k = std::stoi(num);
        if (k < 1)
            return Result<Architecture>(make_error("architecture '" + name + "': K must be at least 1"));
        a.kind = kind;
        a.k = k;
        return Result<Architecture>(a);
    };
    if (auto r = with_k("local-", Architecture::Kind::Local)) return *r;
    if (auto r = with_k("hybrid-", Architecture::Kind::Hybrid)) return *r;
    return make_error("unknown architecture '" + name +
                      "' (expected global, local-K, hybrid-K or lstm)");
}

bool Architecture::is_transformer() const { return kind != Kind::Lstm; }

std::optional<int> Architecture::eos_window() const {
    if (kind == Kind::Local) return k;
    return std::nullopt;
}

std::string Architecture::unbounded_reason() const {
    switch (kind) {
        case Kind::Global: return "global attention (every position is in reach)";
        case Kind::Hybrid: return "hybrid attention (its global heads see every position)";
        case Kind::Lstm: return "the LSTM";
        case Kind::Local: break;
    }
    return "";
}

HeadLayout Architecture::head_layout(int layers, int heads, HybridMode mode) const {
    HeadLayout out;
    if (!is_transformer()) return out;
    for (int l = 0; l < layers; ++l) {
        std::vector<HeadGroup> groups;
        // The groups in head order, an empty one left out (hybrid with one head: its one global head).
        auto add = [&](int count, int window) {
            if (count > 0) groups.push_back({groups.empty() ? 0 : groups.back().first + groups.back().count, count, window});
        };
        switch (kind) {
            case Kind::Global: add(heads, 0); break;
            case Kind::Local: add(heads, k); break;
            case Kind::Hybrid:
                if (mode == HybridMode::Layers) {
                    add(heads, l % 2 == 0 ? k : 0);
                } else {
                    add((heads + 1) / 2, 0);
                    add(heads / 2, k);
                }
                break;
            case Kind::Lstm: break;
        }
        out.layers.push_back(std::move(groups));
    }
    return out;
}

int HeadLayout::heads_with_window(int window) const {
    int n = 0;
    for (const auto& layer : layers)
        for (const auto& g : layer)
            if (g.window == window) n += g.count;
    return n;
}

int HeadLayout::local_window() const {
    for (const auto& layer : layers)
        for (const auto& g : layer)
            if (g.window > 0) return g.window;
    return 0;
}

std::vector<Architecture> predicted_architectures(unsigned max_k) {
    std::vector<Architecture> a{{Architecture::Kind::Global, 0}};
    for (unsigned k = 1; k <= max_k; ++k) a.push_back({Architecture::Kind::Local, int(k)});
    for (unsigned k = 1; k <= max_k; ++k) a.push_back({Architecture::Kind::Hybrid, int(k)});
    return a;
}

std::string to_string(Prediction p) {
    switch (p) {
        case Prediction::Recognizes: return "recognizes";
        case Prediction::Fails: return "fails";
        case Prediction::Unknown: return "unknown";
    }
    return "unknown";
}

Result<Prediction> parse_prediction(const std::string& name) {
    for (auto p : {Prediction::Recognizes, Prediction::Fails, Prediction::Unknown})
        if (to_string(p) == name) return p;
    return make_error("unknown prediction '" + name + "' (expected recognizes, fails or unknown)");
}

}  // namespace ltlkit::automata
