"""`road_chains_best`: the cut of a road network into chains that scores the most (China
(Schacht), option chain_cut: best), checked against a brute force over every set of disjoint
paths on small random graphs. The rulebook cases are scenarios in tests/scenarios/china-schacht*/."""

from __future__ import annotations

from rulewright.runtime import Rng
from rulewright.runtime.boards import GraphBoard
from rulewright.runtime.limits import MAX_STEPS, SearchTooLong


def board(n: int, roads: list[tuple[int, int]]) -> GraphBoard:
    labels = [f"S{i}" for i in range(n)]
    return GraphBoard("g", labels, [(labels[a], labels[b]) for a, b in roads], ["k"], [], [], [])


def score(chains: tuple[tuple[int, ...], ...], doubled: frozenset[int]) -> int:
    return sum(len(c) * (2 if doubled & set(c) else 1) for c in chains)


def brute_force(b: GraphBoard, spots: frozenset[int], least: int, doubled: frozenset[int]) -> int:
    """The best score over every set of disjoint simple paths of at least `least` spots."""
    paths: set[tuple[int, ...]] = set()

    def walk(path: list[int]) -> None:
        paths.add(tuple(path) if path[0] <= path[-1] else tuple(reversed(path)))
        for n in b.neighbours[path[-1]]:
            if n in spots and n not in path:
                walk([*path, n])

    for s in sorted(spots):
        walk([s])
    usable = sorted(p for p in paths if len(p) >= least)
    best = 0

    def pick(i: int, used: frozenset[int], total: int) -> None:
        nonlocal best
        best = max(best, total)
        for j in range(i, len(usable)):
            if used.isdisjoint(usable[j]):
                pick(j + 1, used | set(usable[j]), total + len(usable[j]) * (2 if doubled & set(usable[j]) else 1))

    pick(0, frozenset(), 0)
    return best


def test_the_best_cut_scores_what_a_brute_force_finds() -> None:
    rng = Rng(12)
    for _ in range(250):
        n = 4 + rng.below(8)
        roads = {(rng.below(i), i) for i in range(1, n)}  # a tree, then a few more roads
        for _ in range(rng.below(5)):
            a, c = rng.below(n), rng.below(n)
            if a != c:
                roads.add((min(a, c), max(a, c)))
        b = board(n, sorted(roads))
        spots = frozenset(s for s in range(n) if rng.below(7) != 0)
        doubled = frozenset(s for s in spots if rng.below(6) == 0)
        least = 2 + rng.below(3)
        chains = b.best_road_chains(spots, least, doubled)
        flat = [s for c in chains for s in c]
        assert len(flat) == len(set(flat)) and set(flat) <= spots  # each spot in one chain at most
        for c in chains:
            assert len(c) >= least and c[0] <= c[-1]
            assert all(c[k + 1] in b.neighbours[c[k]] for k in range(len(c) - 1))  # along roads
        assert score(chains, doubled) == brute_force(b, spots, least, doubled)


def test_greedy_longest_first_can_score_less() -> None:
    # A path 0-1-2-3-4-5-6 with branches 7-8-9 on 2 and 10-11 on 4: the longest path takes the
    # middle and leaves short ends; the best cut keeps two chains of four and more.
    b = board(12, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (2, 7), (7, 8), (8, 9), (4, 10), (10, 11)])
    everything = range(12)
    greedy = b.road_chains(everything, 4, False)
    best = b.best_road_chains(everything, 4, [])
    assert score(best, frozenset()) == brute_force(b, frozenset(everything), 4, frozenset())
    assert score(best, frozenset()) > sum(len(c) for c in greedy)


def test_a_list_is_a_tuple_and_a_short_minimum_ends() -> None:
    b = board(3, [(0, 1), (1, 2)])
    assert b.best_road_chains([0, 1, 2], 0, []) == ((0, 1, 2),)
    assert b.best_road_chains([], 4, []) == ()


def test_the_networks_searched_are_the_components_long_enough() -> None:
    """The chain searches take their networks from bit masks (GraphBoard._networks_of), leaving out
    those too small for a chain: the same networks, in the same order, as the board's components
    of at least that many spots, whatever the order and repeats of the spots given."""
    rng = Rng(31)
    for _ in range(300):
        n = 1 + rng.below(20)
        roads = {(min(a, c), max(a, c)) for a, c in ((rng.below(n), rng.below(n)) for _ in range(rng.below(2 * n)))
                 if a != c}
        b = board(n, sorted(roads))
        spots = [s for s in range(n) if rng.below(3) != 0]
        given = spots[::-1] + spots[: rng.below(len(spots) + 1)]  # (any order, some twice)
        for least in (0, 1, 2, 3, 4, 6):
            expected = [g for g in b.networks(frozenset(spots)) if len(g) >= least]
            assert b._networks_of(given, least) == expected


def test_a_cut_remembered_by_its_shape_is_the_cut_a_search_finds() -> None:
    """A network met again in the same shape (its spots in increasing order, its roads, the
    doubled spots) takes the cut remembered, renumbered, and charges the steps its search spent:
    the same chains as a board that never searched, the same steps, the same failure at the limit."""
    rng = Rng(47)
    for _ in range(150):
        n = 4 + rng.below(7)
        roads = sorted({(rng.below(i), i) for i in range(1, n)})
        spots = list(range(n))
        doubled = [s for s in spots if rng.below(5) == 0]
        least = 2 + rng.below(3)
        # the same shape further along a larger board: every spot moved up by `shift`
        shift = 1 + rng.below(5)
        wide = board(n + shift, [(a + shift, c + shift) for a, c in roads])
        network = frozenset(s + shift for s in spots)
        bonus = frozenset(s + shift for s in doubled)
        fresh = board(n + shift, [(a + shift, c + shift) for a, c in roads])
        fresh_steps, steps = [0], [0]
        expected = fresh._best_cut(network, least, bonus, fresh_steps)
        small = board(n, roads)
        small._best_cut(frozenset(spots), least, frozenset(doubled), [0])
        assert not wide.road_cuts and len(small.road_cuts) == 1
        wide.road_cuts.update(small.road_cuts)  # (the shape found on another numbering of its spots)
        assert wide._best_cut(network, least, bonus, steps) == expected and steps == fresh_steps
        # a search that would pass the limit fails remembered too
        for b in (fresh, wide):
            try:
                b._best_cut(network, least, bonus, [MAX_STEPS - fresh_steps[0] + 1])
            except SearchTooLong:
                continue
            raise AssertionError("the limit of a move's steps was passed without failing")
