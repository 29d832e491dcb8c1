"""Reconstruct mountain/river partitions for Gunter Cornett's "China" (Chinagold).

The published boards are not available as data, so this script searches
deterministically (fixed seed, simulated annealing over boundary moves) for a
partition of the hexagonal board into contiguous mountains.  Rivers are the
mirror image (q, r) -> (r, q) of the mountains.  Every hard constraint is
validated before the YAML is printed to stdout.
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Sequence

Spot = tuple[int, int]
DIRS: tuple[Spot, ...] = ((1, 0), (0, 1), (-1, 1), (1, -1), (-1, 0), (0, -1))
MIN_SIZE, MAX_SIZE, MAX_OVERLAP = 3, 8, 3
SEED = 20040101


def board_spots(radius: int) -> list[Spot]:
    """Spots (q, r) in reading order: r ascending, then q ascending."""
    return [
        (q, r)
        for r in range(-radius, radius + 1)
        for q in range(-radius, radius + 1)
        if abs(q + r) <= radius
    ]


def labels(spots: Sequence[Spot]) -> dict[Spot, str]:
    """Row letter by r ascending, number by q ascending within the row."""
    rows = sorted({r for _, r in spots})
    out: dict[Spot, str] = {}
    for i, r in enumerate(rows):
        row = sorted(q for q, rr in spots if rr == r)
        for j, q in enumerate(row):
            out[(q, r)] = f"{chr(ord('A') + i)}{j + 1}"
    return out


def mirror(s: Spot) -> Spot:
    return (s[1], s[0])


class Search:
    """Simulated annealing on a region assignment of spots."""

    def __init__(self, radius: int, count: int, rng: random.Random) -> None:
        self.spots = board_spots(radius)
        self.index = {s: i for i, s in enumerate(self.spots)}
        self.nbrs: list[list[int]] = [
            [self.index[(s[0] + dq, s[1] + dr)] for dq, dr in DIRS
             if (s[0] + dq, s[1] + dr) in self.index]
            for s in self.spots
        ]
        self.mir = [self.index[mirror(s)] for s in self.spots]
        self.count = count
        self.rng = rng
        self.region = self.grow()

    def grow(self) -> list[int]:
        """Initial partition: multi-source growth from random seeds."""
        n = len(self.spots)
        region = [-1] * n
        sizes = [0] * self.count
        for k, s in enumerate(self.rng.sample(range(n), self.count)):
            region[s], sizes[k] = k, 1
        while -1 in region:
            order = sorted(range(self.count), key=lambda k: (sizes[k], self.rng.random()))
            for k in order:
                cand = [t for s in range(n) if region[s] == k
                        for t in self.nbrs[s] if region[t] == -1]
                if cand:
                    t = self.rng.choice(cand)
                    region[t], sizes[k] = k, sizes[k] + 1
                    break
        return region

    def connected(self, members: list[int]) -> bool:
        if not members:
            return False
        inside, seen, stack = set(members), {members[0]}, [members[0]]
        while stack:
            for t in self.nbrs[stack.pop()]:
                if t in inside and t not in seen:
                    seen.add(t)
                    stack.append(t)
        return len(seen) == len(inside)

    def cost(self, region: list[int]) -> tuple[float, int]:
        """Return (total cost, hard violation count)."""
        k = self.count
        sizes = [0] * k
        overlap = [[0] * k for _ in range(k)]
        cut = 0
        for s, a in enumerate(region):
            sizes[a] += 1
            overlap[a][region[self.mir[s]]] += 1
            cut += sum(1 for t in self.nbrs[s] if region[t] != a)
        hard = sum(max(0, MIN_SIZE - z) + max(0, z - MAX_SIZE) for z in sizes)
        hard += sum(max(0, c - MAX_OVERLAP) for row in overlap for c in row)
        # mountain i equals river j  <=>  overlap[i][j] == |M_i| == |M_j|
        hard += sum(1 for i in range(k) for j in range(k)
                    if overlap[i][j] == sizes[i] == sizes[j])
        missing = len(set(range(MIN_SIZE, MAX_SIZE + 1)) - set(sizes))
        return 20.0 * hard + 0.5 * cut + 4.0 * missing, hard

    def anneal(self, steps: int) -> tuple[list[int], int]:
        region = self.region[:]
        cur, hard = self.cost(region)
        best, best_cost, best_hard = region[:], cur, hard
        n = len(self.spots)
        for step in range(steps):
            temp = 3.0 * (1.0 - step / steps) + 0.05
            s = self.rng.randrange(n)
            a = region[s]
            others = sorted({region[t] for t in self.nbrs[s]} - {a})
            if not others:
                continue
            b = self.rng.choice(others)
            region[s] = b
            if not self.connected([i for i in range(n) if region[i] == a]):
                region[s] = a
                continue
            new, new_hard = self.cost(region)
            if new <= cur or self.rng.random() < math.exp((cur - new) / temp):
                cur, hard = new, new_hard
                if (hard, cur) < (best_hard, best_cost):
                    best, best_cost, best_hard = region[:], cur, hard
            else:
                region[s] = a
        return best, best_hard


def partition(radius: int, count: int, rng: random.Random) -> list[list[Spot]]:
    for _ in range(20):
        search = Search(radius, count, rng)
        region, hard = search.anneal(60000)
        if hard == 0:
            groups = [[search.spots[i] for i, a in enumerate(region) if a == k]
                      for k in range(count)]
            return groups
    raise RuntimeError(f"no valid partition found for radius {radius}")


def validate(radius: int, count: int, mountains: list[list[Spot]]) -> None:
    spots = board_spots(radius)
    flat = [s for m in mountains for s in m]
    if len(mountains) != count:
        raise ValueError(f"expected {count} mountains, got {len(mountains)}")
    if sorted(flat) != sorted(spots) or len(set(flat)) != len(flat):
        raise ValueError("mountains do not partition the board")
    msets = [frozenset(m) for m in mountains]
    rsets = [frozenset(mirror(s) for s in m) for m in mountains]
    for m in msets:
        if not MIN_SIZE <= len(m) <= MAX_SIZE:
            raise ValueError(f"bad mountain size {len(m)}")
        start = next(iter(m))
        seen, stack = {start}, [start]
        while stack:
            q, r = stack.pop()
            for dq, dr in DIRS:
                t = (q + dq, r + dr)
                if t in m and t not in seen:
                    seen.add(t)
                    stack.append(t)
        if seen != m:
            raise ValueError("mountain is not contiguous")
    if sorted(flat) != sorted(s for r in rsets for s in r):
        raise ValueError("rivers do not partition the board")
    for m in msets:
        for riv in rsets:
            if m == riv:
                raise ValueError("a mountain equals a river")
            if len(m & riv) > MAX_OVERLAP:
                raise ValueError(f"mountain/river overlap {len(m & riv)} > {MAX_OVERLAP}")


def reading_key(lab: str) -> tuple[str, int]:
    return (lab[0], int(lab[1:]))


def emit(name: str, radius: int, mountains: list[list[Spot]]) -> list[str]:
    lab = labels(board_spots(radius))
    groups = sorted((sorted((lab[s] for s in m), key=reading_key) for m in mountains),
                    key=lambda g: reading_key(g[0]))
    lines = [f"{name}:", f"  side: {radius + 1}", "  mountain:"]
    lines += [f"    M{i + 1}: [{', '.join(g)}]" for i, g in enumerate(groups)]
    return lines


def stats(radius: int, mountains: list[list[Spot]]) -> str:
    sizes = sorted(len(m) for m in mountains)
    rivers = [{mirror(s) for s in m} for m in mountains]
    worst = max(len(set(m) & r) for m in mountains for r in rivers)
    return f"side {radius + 1}: sizes {sizes} max mountain/river overlap {worst}"


def main() -> None:
    rng = random.Random(SEED)
    out: list[str] = []
    for name, radius, count in (("hex6", 5, 17), ("hex5", 4, 12)):
        mountains = partition(radius, count, rng)
        validate(radius, count, mountains)
        out += emit(name, radius, mountains)
        print(stats(radius, mountains), file=sys.stderr)
    print("\n".join(out))


if __name__ == "__main__":
    main()
