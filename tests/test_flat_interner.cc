// FlatInterner (automata/algebra/flat_interner.hh), which holds the window types' signatures, the
// sink-state route's product states and the depth probe's types and states, against a second route
// that shares none of its code: a std::map from the sequence to the id given in order of first
// sight. On random sequences with many repeats (lengths 0..6, negative values included, enough of
// them to make the index grow several times) both give the same id to every sequence, the same
// "new" flag, the same contents back by id, find() answers -1 exactly for what was never interned,
// and bytes() is the sum of bytes_of over the sequences held (what the window budget charges).
// The window types built on it: on random words, every id of a level type names the signature it
// was interned for, and the ids stay dense.
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "automata/algebra/flat_interner.hh"
#include "automata/algebra/windows.hh"

using namespace ltlkit::automata;
using namespace ltlkit::automata::algebra;

namespace {

template <class T>
void compare_with_map(std::uint32_t seed, std::size_t draws, int values) {
    std::mt19937 rng(seed);
    FlatInterner<T> pool;
    std::map<std::vector<T>, std::int32_t> ref;
    std::vector<std::vector<T>> by_id;
    std::size_t bytes = 0;
    for (std::size_t i = 0; i < draws; ++i) {
        std::vector<T> s(rng() % 7);
        for (auto& x : s) x = static_cast<T>(static_cast<int>(rng() % (2 * values)) - values);
        // find() before interning: -1 exactly when the map has not seen it
        const auto it = ref.find(s);
        CHECK(pool.find(s.data(), s.size()) == (it == ref.end() ? -1 : it->second));
        const auto [id, fresh] = pool.intern(s);
        CHECK(fresh == (it == ref.end()));
        if (fresh) {
            ref.emplace(s, static_cast<std::int32_t>(by_id.size()));
            by_id.push_back(s);
            bytes += FlatInterner<T>::bytes_of(s.size());
        }
        REQUIRE(id == ref.at(s));
    }
    REQUIRE(pool.size() == by_id.size());
    CHECK(pool.bytes() == bytes);
    std::vector<T> out;
    for (std::size_t id = 0; id < by_id.size(); ++id) {
        pool.copy(static_cast<std::int32_t>(id), out);
        CHECK(out == by_id[id]);
        const auto [p, n] = pool.get(static_cast<std::int32_t>(id));
        CHECK(std::vector<T>(p, p + n) == by_id[id]);
        CHECK(pool(by_id[id]) == static_cast<std::int32_t>(id));  // interning again finds it
    }
    CHECK(pool.size() == by_id.size());
}

}  // namespace

TEST_CASE("FlatInterner gives the ids of a map in order of first sight, and their sequences back") {
    for (std::uint32_t seed = 1; seed <= 6; ++seed) {
        compare_with_map<long>(seed, 20000, 3);          // many repeats, the index grows past 1024 slots
        compare_with_map<std::int32_t>(seed, 5000, 50);  // mostly fresh
    }
    // the empty pool finds nothing, and the empty sequence is a sequence like the others
    FlatInterner<long> empty;
    CHECK(empty.find(nullptr, 0) == -1);
    CHECK(empty.intern(std::vector<long>{}) == std::pair<std::int32_t, bool>{0, true});
    CHECK(empty.intern(std::vector<long>{}) == std::pair<std::int32_t, bool>{0, false});
    CHECK(empty.find(nullptr, 0) == 0);
}

TEST_CASE("Window types on the pool: every id of a word's levels names its own signature, ids dense") {
    std::mt19937 rng(7);
    for (int trial = 0; trial < 40; ++trial) {
        const unsigned k = 1 + rng() % 3, D = 1 + rng() % 3;
        const std::size_t sigma = 2 + rng() % 2;
        WindowTypes types{k, sigma, {}, {}};
        std::map<std::vector<long>, long> ref;  // the map the pool replaced
        for (int w = 0; w < 30; ++w) {
            Word word(rng() % 9);
            for (auto& c : word) c = static_cast<Symbol>(rng() % sigma);
            const std::vector<long> t = types.types(word, D);
            REQUIRE(t.size() == word.size() + 1);
            // every id names a signature the map gives the same id, ids dense in order of first sight
            for (std::size_t id = ref.size(); id < types.sig.size(); ++id) {
                const auto sp = types.sig[id];
                ref.emplace(std::vector<long>(sp.begin(), sp.end()), static_cast<long>(id));
            }
            REQUIRE(ref.size() == types.sig.size());
            for (long id : t) {
                const auto sp = types.sig[static_cast<std::size_t>(id)];
                CHECK(ref.at(std::vector<long>(sp.begin(), sp.end())) == id);
            }
        }
    }
}
