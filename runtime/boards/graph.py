"""A graph board: named spots joined by roads, regions over them and borders between regions; road
chains cut from the roads (China)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..kept import ENTRY, OBJECT, made, weight
from ..limits import MAX_STEPS, SearchTooLong
from .base import Board, RegionSpec

# At most so many best cuts of road networks remembered by a board (GraphBoard._best_cut): a table
# full is emptied, so that no game can make it grow without bound.
MAX_CUTS = 10_000


def _too_dense() -> SearchTooLong:
    return SearchTooLong(f"the best cut into road chains: more than {MAX_STEPS:,} paths searched in one move, the "
                         "limit of a move's work (a network with this many forks is too dense for road_chains_best)")


class GraphBoard(Board):
    """Named spots joined by roads (China's palace spaces), regions over them, borders between regions."""

    __slots__ = ()

    def __init__(
        self, name: str, labels: Sequence[str], roads: Iterable[tuple[str, str]], kinds: Sequence[str],
        regions: Iterable[RegionSpec], borders: Iterable[tuple[str, str]], attributes: Sequence[tuple[int, ...]],
    ) -> None:
        self.name = name
        self.labels = tuple(labels)
        self.index = {label: i for i, label in enumerate(self.labels)}
        self.spots = tuple(range(len(self.labels)))
        near: list[set[int]] = [set() for _ in self.spots]
        for a, b in roads:
            near[self.index[a]].add(self.index[b])
            near[self.index[b]].add(self.index[a])
        self.neighbours = tuple(tuple(sorted(n)) for n in near)
        # each spot's neighbours along the roads as a mask, bit s for spot s (`_networks_of`)
        self.road_masks: tuple[int, ...] = tuple(sum(1 << m for m in n) for n in self.neighbours)
        # the best cuts of networks found (_best_cut), by the network's shape: shared by every state
        self.road_cuts: dict[tuple[Any, ...], tuple[int, list[tuple[int, ...]]]] = {}
        self._regions(kinds, regions)
        by_name = {n: i for i, n in enumerate(self.region_names)}
        self.border_regions = tuple((by_name[a], by_name[b]) for a, b in borders)
        self.region_attributes = tuple(attributes)

    def _forget_own(self) -> None:
        self.road_cuts.clear()

    def road_chains(self, spots: Iterable[int], least: int, one_per_network: bool) -> list[tuple[int, ...]]:
        """Cut the road network among `spots` into chains of at least `least` spots.

        A chain is a path along roads that never forks; each spot is in at most one chain. The
        longest path is taken first (ties: the one whose spots come first on the board), its spots
        are taken out, and the longest path left is next, until none is `least` long. With
        `one_per_network`, only the longest path of each connected network counts.
        """
        chains: list[tuple[int, ...]] = []
        if one_per_network:
            # (a network of fewer than `least` spots holds no path that long: not searched)
            for network in self._networks_of(spots, least):
                best = self._longest_path(network)
                if len(best) >= least:
                    chains.append(best)
            return chains
        left = frozenset(spots)
        while left:
            best = self._longest_path(left)
            if len(best) < least:
                break
            chains.append(best)
            left = left - set(best)
        return chains

    def best_road_chains(self, spots: Iterable[int], least: int, doubled: Iterable[int]) -> tuple[tuple[int, ...], ...]:
        """The cut of the road network among `spots` into chains of at least `least` spots that
        scores the most: a chain scores its length, twice if it holds one of `doubled`.

        A chain is a path along roads that never forks; each spot is in at most one chain. An
        exact search, network by network: the lowest spot left is either in no chain or in one
        of the paths through it, and each set of spots left is solved once. Its work is counted
        and bounded like `road_chains` (SearchTooLong past MAX_STEPS). Of cuts that score the
        same, the one with the longest chain through the lowest spot is kept (then the first
        found, the paths through it in the order of the roads). Each chain starts at its lower
        end.
        """
        bonus = frozenset(doubled)
        least = max(least, 1)  # (a chain holds a spot at least)
        steps = [0]
        chains: list[tuple[int, ...]] = []
        for network in self._networks_of(spots, least):
            chains.extend(self._best_cut(network, least, bonus, steps))
        return tuple(chains)

    def _networks_of(self, spots: Iterable[int], least: int) -> list[frozenset[int]]:
        """The networks of `spots` (networks(): the groups the roads join them in, the one of the
        lowest spot first) that hold `least` spots or more, the others left out: a network too
        small for a chain is no input of a chain search. Found as bit masks (bit s for spot s): a
        spot with no neighbour among the others, a network of one, is left out at once (where
        `least` is more than one); each network is grown from its lowest spot by the roads' masks
        of the spots it gained, until it gains none; only a network kept is made a set of spots.
        China (Schacht)'s players hold some 9 networks each at the end of a game, 6.6 of them of
        one spot and 0.2 of four or more (measured over 300 random three-player games)."""
        near = self.road_masks
        members = list(spots)
        left = 0
        for s in members:
            left |= 1 << s
        if least > 1:  # (a spot with no neighbour among the others is a network of one: left out)
            linked = 0
            for s in members:
                if near[s] & left:
                    linked |= 1 << s
            left = linked
        found: list[frozenset[int]] = []
        while left:
            group = edge = left & -left
            while edge:  # the spots the group gained last: their neighbours among those left
                grown = 0
                while edge:
                    bit = edge & -edge
                    grown |= near[bit.bit_length() - 1]
                    edge ^= bit
                edge = grown & left & ~group
                group |= edge
            left ^= group
            if group.bit_count() >= least:
                members = []
                while group:
                    bit = group & -group
                    members.append(bit.bit_length() - 1)
                    group ^= bit
                found.append(frozenset(members))
        return found

    def _best_cut(self, network: frozenset[int], least: int, bonus: frozenset[int],
                  steps: list[int]) -> list[tuple[int, ...]]:
        """The best cut of one connected network (best_road_chains), iteratively: spots are bits
        of a mask, and a stack of the masks still to solve replaces recursion.

        The search reads nothing of the network but its shape: its spots numbered in increasing
        order (bit i for the i-th), the roads between them, `least` and the doubled spots. So a
        cut found is remembered by that shape in a table of the board (`road_cuts`, emptied
        when it holds MAX_CUTS), with the steps its search spent; a network of the same shape
        met again (China (Schacht)'s four to eight palaces along a road, in a few shapes) takes
        the cut found, its spots renumbered, and charges the same steps, so that a search past
        MAX_STEPS fails as it would have (the steps of a move only grow as they are spent: the
        search fails if and only if what it spends in all takes them past the limit)."""
        order = sorted(network)
        bit = {s: i for i, s in enumerate(order)}
        near = tuple(tuple(bit[n] for n in self.neighbours[s] if n in network) for s in order)
        doubled_mask = sum(1 << bit[s] for s in bonus if s in network)
        shape = (near, least, doubled_mask)
        known = self.road_cuts.get(shape)
        if known is not None:
            steps[0] += known[0]
            if steps[0] > MAX_STEPS:
                raise _too_dense()
            return [self._oriented(order, taken) for taken in known[1]]
        before = steps[0]

        def spend(n: int) -> None:
            steps[0] += n
            if steps[0] > MAX_STEPS:  # a dense network has more cuts than a move may search
                raise _too_dense()

        def paths_from(v: int, allowed: int) -> list[tuple[tuple[int, ...], int]]:
            """Every simple path from v among the `allowed` spots, with the mask of its spots."""
            out: list[tuple[tuple[int, ...], int]] = []
            todo: list[tuple[tuple[int, ...], int]] = [((v,), 1 << v)]
            room = MAX_STEPS - steps[0]
            while todo:
                path, on = todo.pop()
                out.append((path, on))
                if len(out) > room:
                    spend(len(out))  # (raises: past the limit before the list is whole)
                for n in near[path[-1]]:
                    if allowed >> n & 1 and not on >> n & 1:
                        todo.append(((*path, n), on | 1 << n))
            spend(len(out))
            return out

        # best[mask] = (score, the chain taken from mask or None, the mask left after it)
        best: dict[int, tuple[int, tuple[int, ...] | None, int]] = {}
        moves: dict[int, list[tuple[int, tuple[int, ...] | None, int]]] = {}
        full = (1 << len(order)) - 1
        todo: list[int] = [full]
        while todo:
            mask = todo.pop()
            if mask in best:
                continue
            if mask.bit_count() < least:
                best[mask] = (0, None, 0)
                continue
            if mask not in moves:
                low = mask & -mask
                v = low.bit_length() - 1
                options: list[tuple[int, tuple[int, ...] | None, int]] = [(0, None, mask & ~low)]
                for a, on_a in paths_from(v, mask):
                    for b, on_b in paths_from(v, mask & ~(on_a & ~low)):
                        if len(a) + len(b) - 1 < least or not (len(b) == 1 or (len(a) > 1 and a[1] < b[1])):
                            continue  # too short, or the same path read from its other end
                        on = on_a | on_b
                        chain = (*reversed(b), *a[1:])
                        options.append((len(chain) * (2 if on & doubled_mask else 1), chain, mask & ~on))
                spend(len(options))
                moves[mask] = options
                todo.append(mask)
                todo.extend(rest for _, _, rest in options if rest not in best)
                continue
            top: tuple[int, tuple[int, ...] | None, int] = (-1, None, 0)
            length = -1
            for score, taken, rest in moves.pop(mask):
                total = score + best[rest][0]
                if total > top[0] or (total == top[0] and taken is not None and len(taken) > length):
                    top = (total, taken, rest)
                    length = len(taken) if taken is not None else 0
            best[mask] = top
        cut: list[tuple[int, ...]] = []
        mask = full
        while mask.bit_count() >= least:
            _, taken, mask = best[mask]
            if taken is not None:
                cut.append(taken)
        made(self, weight(shape) + weight(cut) + ENTRY + OBJECT + 2)
        if len(self.road_cuts) >= MAX_CUTS:
            self.road_cuts.clear()
        self.road_cuts[shape] = (steps[0] - before, cut)
        return [self._oriented(order, taken) for taken in cut]

    @staticmethod
    def _oriented(order: list[int], taken: tuple[int, ...]) -> tuple[int, ...]:
        """A chain of a cut, its bits the spots of `order`: from its lower end."""
        found = tuple(order[i] for i in taken)
        return found if found[0] <= found[-1] else found[::-1]

    def networks(self, spots: frozenset[int]) -> tuple[frozenset[int], ...]:
        """The spots cut into the networks the roads join them in, the one of the lowest spot first
        (a graph board's neighbours are its roads: these are its connected components)."""
        return self.components(spots)

    def _longest_path(self, spots: frozenset[int]) -> tuple[int, ...]:
        """The longest simple path among `spots` (a depth-first search: networks here are small)."""
        best: tuple[int, ...] = ()
        near = {s: [n for n in self.neighbours[s] if n in spots] for s in spots}
        steps = 0

        def walk(path: list[int], on: set[int]) -> None:
            nonlocal best, steps
            steps += 1
            if steps > MAX_STEPS:  # a dense network has more paths than a move may search
                raise SearchTooLong(f"the longest road chain: more than {MAX_STEPS:,} paths searched in one "
                                    "move, the limit of a move's work (a network with this many forks is "
                                    "too dense for road_chains)")
            extended = False
            for nxt in near[path[-1]]:
                if nxt not in on:
                    extended = True
                    path.append(nxt)
                    on.add(nxt)
                    walk(path, on)
                    on.discard(nxt)
                    path.pop()
            if not extended:
                # the same path read from either end counts once: keep the one that starts lower
                candidate = tuple(path) if path[0] <= path[-1] else tuple(reversed(path))
                if len(candidate) > len(best) or (len(candidate) == len(best) and candidate < best):
                    best = candidate

        for start in sorted(spots):
            walk([start], {start})
        return best

