"""Stage 5, check (boards): the validators of what a graph board's or a wall's `expect:` states,
each a function of the board as declared giving the problems it finds, as text; compiler/boards.py
reports each at the `expect:` (`board `x` does not match what is expected of it: ...`).
"""

from __future__ import annotations

from collections import Counter

from ..runtime.boards import GraphBoard
from . import ir


def graph_problems(board: ir.Board, labels: list[str], edges: list[tuple[str, str]],
                   region_of: dict[str, dict[str, list[str]]], borders: list[tuple[str, str]]) -> list[str]:
    """The validators of a graph board: each count and property its `expect:` states."""
    exp = board.expect
    assert exp is not None
    problems: list[str] = []
    if exp.spots is not None and exp.spots != len(labels):
        problems.append(f"{len(labels)} spots, expected {exp.spots}")
    kinds = {k.name: k for k in board.region_kinds}
    for kind_name, count in exp.regions:
        found = len(kinds[kind_name].regions) if kind_name in kinds else 0
        if found != count:
            problems.append(f"{found} regions of kind `{kind_name}`, expected {count}")
    if exp.region_size is not None:
        low, high = exp.region_size
        for kind_name, _ in exp.regions:
            for r in kinds[kind_name].regions if kind_name in kinds else ():
                if not low <= len(r.spots) <= high:
                    problems.append(f"region {r.name} has {len(r.spots)} spots, not {low} to {high}")
    if exp.connected and labels:
        roads = GraphBoard(board.name, labels, edges, (), (), (), ())
        first, *others = roads.networks(frozenset(roads.spots))
        if others:
            cut = sorted(set(labels) - {labels[s] for s in first})
            problems.append(f"the roads do not join every spot: {', '.join(cut[:6])} cannot be reached "
                            f"from {labels[0]}")
    if exp.cover_each_spot_once:
        for kind_name, _ in exp.regions:
            if kind_name not in kinds:
                continue  # (its count is off, said above)
            of = region_of.get(kind_name, {})
            for spot in labels:
                if len(of.get(spot, [])) != 1:
                    problems.append(f"spot {spot} is in {len(of.get(spot, []))} regions of kind `{kind_name}`")
    border_counts = Counter[str]()
    for k, pairs in board.borders:
        border_counts[k] += len(pairs)
    for kind_name, count in exp.borders:
        found = border_counts[kind_name]
        if found != count:
            problems.append(f"{found} borders between regions of kind `{kind_name}`, expected {count}")
    if exp.borders_match_roads is not None:
        of = region_of.get(exp.borders_match_roads, {})
        crossing: set[frozenset[str]] = set()
        for a, b in edges:
            for ra in of.get(a, []):
                for rb in of.get(b, []):
                    if ra != rb:
                        crossing.add(frozenset((ra, rb)))
        for owners in of.values():  # a spot in two regions joins them (a border post)
            for i, ra in enumerate(owners):
                for rb in owners[i + 1:]:
                    crossing.add(frozenset((ra, rb)))
        listed = {frozenset(p) for k, pairs in board.borders if k == exp.borders_match_roads for p in pairs}
        for pair in sorted(crossing - listed, key=sorted):
            problems.append(f"a road joins {' and '.join(sorted(pair))}, but no border between them is listed")
        for pair in sorted(listed - crossing, key=sorted):
            problems.append(f"the border {'-'.join(sorted(pair))} is crossed by no road")
    attributes = {(r.name, a): v for k in board.region_kinds for r in k.regions for a, v in r.attributes}
    by_attribute: dict[str, Counter[str]] = {}
    for (_, a), v in attributes.items():
        by_attribute.setdefault(a, Counter())[v] += 1
    for attr, counts in exp.attribute_counts:
        found_counts = by_attribute.get(attr, Counter())
        for value, count in counts:
            if found_counts.get(value, 0) != count:
                problems.append(f"{found_counts.get(value, 0)} regions with {attr} {value}, expected {count}")
        extra = set(found_counts) - {v for v, _ in counts}
        if extra:
            problems.append(f"regions with {attr} {', '.join(sorted(extra))}, which `expect` does not list")
    if exp.bordering_differ is not None:
        for a, b in borders:
            va, vb = attributes.get((a, exp.bordering_differ)), attributes.get((b, exp.bordering_differ))
            if va is not None and va == vb:
                problems.append(f"{a} and {b} border each other and are both {exp.bordering_differ} {va}")
    return problems


def wall_problems(board: ir.Board, regions: list[tuple[str, str, tuple[str, ...]]], face_of: dict[str, str],
                  exp: ir.BoardExpect) -> list[str]:
    """A wall's own validators: the regions of each kind on every face, the spaces of every face,
    and the most spaces k faces of k different pieces can hold (every wall the game can lay)."""
    problems: list[str] = []
    faces = [f for p in board.wall for f in p.faces]
    on_face = Counter((k, face_of.get(spots[0])) for k, _, spots in regions if spots)
    kinds = {k.name for k in board.region_kinds}
    for kind_name, count in exp.regions_per_face:
        if kind_name not in kinds:
            problems.append(f"regions_per_face names `{kind_name}`, no kind of region of the wall")
            continue
        for f in faces:
            found = on_face[(kind_name, f.name)]
            if found != count:
                problems.append(f"face {f.name} has {found} region{'' if found == 1 else 's'} of kind `{kind_name}`, "
                                f"expected {count}")
    if exp.face_size is not None:
        low, high = exp.face_size
        for f in faces:
            if not low <= len(f.spots) <= high:
                problems.append(f"face {f.name} has {len(f.spots)} spaces, expected {low} to {high}")
    biggest = sorted((max(len(f.spots) for f in p.faces) for p in board.wall if p.faces), reverse=True)
    held = [0]  # the most spaces k faces of k pieces hold, by k
    for size in biggest:
        held.append(held[-1] + size)
    for k, most in exp.largest_wall:
        if not 1 <= k <= len(biggest):
            problems.append(f"largest_wall of {k} faces: the wall has {len(biggest)} pieces")
        elif held[k] > most:
            problems.append(f"{k} faces can hold {held[k]} spaces, expected at most {most}")
    return problems
