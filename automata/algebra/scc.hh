// The one strongly-connected-components routine of the algebra layer: Boost.Graph's
// strong_components (Tarjan 1972) on a graph given by a successor function, which no edge list
// stores. The DFA's transition graph, the Cayley graphs of the transition semigroup and the graph on
// pairs of DFA states (n² vertices, too many to list on large DFAs) are all searched through it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include <boost/graph/graph_traits.hpp>
#include <boost/graph/strong_components.hpp>
#include <boost/iterator/counting_iterator.hpp>
#include <boost/iterator/iterator_facade.hpp>
#include <boost/property_map/property_map.hpp>

namespace ltlkit::automata::algebra {

// A directed graph on the vertices 0..n-1 whose vertex v has the edges v -> succ(v, i) for the
// i < degree where succ(v, i) >= 0. A model of Boost.Graph's IncidenceGraph and VertexListGraph.
template <class Succ>
class ImplicitGraph {
public:
    using vertex_descriptor = std::uint32_t;
    struct edge_descriptor {
        std::uint32_t source = 0, target = 0;
        bool operator==(const edge_descriptor&) const = default;
    };
    using directed_category = boost::directed_tag;
    using edge_parallel_category = boost::allow_parallel_edge_tag;
    struct traversal_category : boost::incidence_graph_tag, boost::vertex_list_graph_tag {};
    using vertices_size_type = std::size_t;
    using edges_size_type = std::size_t;
    using degree_size_type = std::size_t;
    using vertex_iterator = boost::counting_iterator<std::uint32_t>;
    using adjacency_iterator = void;
    using in_edge_iterator = void;
    using edge_iterator = void;
    static vertex_descriptor null_vertex() { return UINT32_MAX; }

    // The edges of one vertex: the indices i < degree with succ(v, i) >= 0, in increasing order.
    class out_edge_iterator
        : public boost::iterator_facade<out_edge_iterator, edge_descriptor, boost::forward_traversal_tag,
                                        edge_descriptor> {
    public:
        out_edge_iterator() = default;
        out_edge_iterator(const ImplicitGraph* g, std::uint32_t v, std::size_t i) : g_(g), v_(v), i_(i) { skip(); }

    private:
        friend class boost::iterator_core_access;
        void skip() {
            for (; i_ < g_->degree_; ++i_)
                if (const auto t = g_->succ_(v_, i_); t >= 0) {
                    target_ = static_cast<std::uint32_t>(t);
                    return;
                }
        }
        void increment() {
            ++i_;
            skip();
        }
        bool equal(const out_edge_iterator& o) const { return i_ == o.i_ && v_ == o.v_; }
        edge_descriptor dereference() const { return {v_, target_}; }
        const ImplicitGraph* g_ = nullptr;
        std::uint32_t v_ = 0, target_ = 0;
        std::size_t i_ = 0;
    };

    ImplicitGraph(std::size_t n, std::size_t degree, Succ succ) : n_(n), degree_(degree), succ_(std::move(succ)) {}

    friend std::pair<vertex_iterator, vertex_iterator> vertices(const ImplicitGraph& g) {
        return {vertex_iterator(0), vertex_iterator(static_cast<std::uint32_t>(g.n_))};
    }
    friend std::size_t num_vertices(const ImplicitGraph& g) { return g.n_; }
    friend std::pair<out_edge_iterator, out_edge_iterator> out_edges(vertex_descriptor v, const ImplicitGraph& g) {
        return {out_edge_iterator(&g, v, 0), out_edge_iterator(&g, v, g.degree_)};
    }
    friend std::size_t out_degree(vertex_descriptor v, const ImplicitGraph& g) {
        std::size_t d = 0;
        for (std::size_t i = 0; i < g.degree_; ++i) d += g.succ_(v, i) >= 0;
        return d;
    }
    friend vertex_descriptor source(edge_descriptor e, const ImplicitGraph&) { return e.source; }
    friend vertex_descriptor target(edge_descriptor e, const ImplicitGraph&) { return e.target; }

private:
    std::size_t n_, degree_;
    Succ succ_;
};

// The SCCs of the graph on 0..n-1 with the edges v -> succ(v, i) (i < degree, succ(v, i) >= 0;
// succ returns a signed integer): comp[v] is v's component, components are numbered in the order
// Tarjan's algorithm completes them, so every edge leads to a component with a number at most its
// source's (a reverse topological order). Returns the number of components. About 16 bytes per
// vertex besides the search stack.
template <class Succ>
std::size_t strong_components(std::size_t n, std::size_t degree, Succ succ, std::vector<std::uint32_t>& comp) {
    const ImplicitGraph<Succ> g(n, degree, std::move(succ));
    comp.assign(n, 0);
    std::vector<std::uint32_t> root(n), discovered(n);
    std::vector<boost::default_color_type> color(n);
    const boost::typed_identity_property_map<std::uint32_t> id;
    return boost::strong_components(
        g, boost::make_iterator_property_map(comp.begin(), id),
        boost::root_map(boost::make_iterator_property_map(root.begin(), id))
            .discover_time_map(boost::make_iterator_property_map(discovered.begin(), id))
            .color_map(boost::make_iterator_property_map(color.begin(), id))
            .vertex_index_map(id));
}

}  // namespace ltlkit::automata::algebra
