"""The warm-started blossom algorithm against networkx and its own optimality certificate."""

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing.matching import max_weight_matching


@st.composite
def graphs(draw: st.DrawFn) -> tuple[int, list[tuple[int, int, int]]]:
    n = draw(st.integers(0, 12))
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True) if pairs else st.just([]))
    weights = draw(st.lists(st.integers(1, 9), min_size=len(chosen), max_size=len(chosen)))
    return n, [(i, j, w) for (i, j), w in zip(chosen, weights, strict=True)]


def weight_of(mate: list[int], edges: list[tuple[int, int, int]]) -> int:
    w = {(i, j): x for i, j, x in edges} | {(j, i): x for i, j, x in edges}
    return sum(w[(v, u)] for v, u in enumerate(mate) if u > v)


@settings(max_examples=150, deadline=None)
@given(graphs(), st.booleans(), st.randoms(use_true_random=False))
def test_matches_networkx_with_and_without_warm_start(graph, max_cardinality, rnd) -> None:
    n, edges = graph
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_weighted_edges_from(edges)
    reference = nx.max_weight_matching(g, maxcardinality=max_cardinality)
    top = max((w for *_, w in edges), default=0)
    initial: list[tuple[int, int]] = []
    used: set[int] = set()
    for i, j, w in edges:
        if w == top and i not in used and j not in used and rnd.random() < 0.7:
            initial.append((i, j))
            used |= {i, j}
    for start in ([], initial):
        mate = max_weight_matching(n, edges, max_cardinality=max_cardinality, initial=start, verify=True)
        assert all(mate[u] == v for v, u in enumerate(mate) if u != -1)
        assert sum(1 for u in mate if u != -1) // 2 == len(reference)
        assert weight_of(mate, edges) == sum(g[a][b]["weight"] for a, b in reference)


def test_warm_start_edges_must_be_heaviest_and_disjoint() -> None:
    edges = [(0, 1, 5), (1, 2, 3), (2, 3, 5)]
    with pytest.raises(ValueError, match="largest weight"):
        max_weight_matching(4, edges, initial=[(1, 2)])
    with pytest.raises(ValueError, match="not an edge"):
        max_weight_matching(4, edges, initial=[(0, 3)])
    with pytest.raises(ValueError, match="share vertex"):
        max_weight_matching(4, [(0, 1, 5), (0, 2, 5)], initial=[(0, 1), (0, 2)])


def test_max_cardinality_prefers_more_edges_over_weight() -> None:
    # Path 0-1-2-3 where the middle edge is heavy: a perfect matching uses the two light edges.
    edges = [(0, 1, 1), (1, 2, 10), (2, 3, 1)]
    assert max_weight_matching(4, edges) == [1, 0, 3, 2]
    assert max_weight_matching(4, edges, max_cardinality=False) == [-1, 2, 1, -1]
