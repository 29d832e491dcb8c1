"""A wall board: a wall that grows during play, its faces laid left or right (Chang Cheng)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..kept import ENTRY, OBJECT, made
from .base import Board, RegionSpec


class WallBoard(Board):
    """A wall that grows during play (Chang Cheng): pieces, each with faces (its sides), each
    face a stretch of spaces from left to right. Every space of every face is a spot, so a
    per-spot field has a value for each; which faces are laid, and in which order, is not the
    board's but the game's: a `list(wallface)` of the state, left end first (the layout). The
    wall's spots are the spots of its faces in that order; two spots are neighbours along the
    wall when they follow each other, across the join of two faces too."""

    __slots__ = ("_laid", "_laid_near", "_laid_regions", "face_names", "piece_names")

    def __init__(
        self, name: str, pieces: Sequence[tuple[str, Sequence[tuple[str, Sequence[str]]]]], kinds: Sequence[str],
        regions: Iterable[RegionSpec],
    ) -> None:
        self.name = name
        labels: list[str] = []
        face_spots: list[tuple[int, ...]] = []
        face_piece: list[int] = []
        face_names: list[str] = []
        for p, (_, faces) in enumerate(pieces):
            for face, spots in faces:
                face_spots.append(tuple(range(len(labels), len(labels) + len(spots))))
                face_piece.append(p)
                face_names.append(face)
                labels.extend(spots)
        self.labels = tuple(labels)
        self.index = {label: i for i, label in enumerate(self.labels)}
        self.spots = tuple(range(len(labels)))
        self.piece_names: tuple[str, ...] = tuple(p for p, _ in pieces)
        self.face_names: tuple[str, ...] = tuple(face_names)
        near: list[list[int]] = [[] for _ in self.spots]
        for run in face_spots:
            for a, b in zip(run, run[1:], strict=False):
                near[a].append(b)
                near[b].append(a)
        # within a face only: the joins between faces are the layout's (see wall_neighbours)
        self.neighbours = tuple(tuple(sorted(n)) for n in near)
        self._regions(kinds, regions)
        self.face_spots = tuple(face_spots)
        self.face_piece = tuple(face_piece)
        # Each layout met, its spots left to right and where each spot stands among them: a game
        # asks the same few layouts again and again (a layout is a tuple, so it cannot change).
        self._laid: dict[tuple[int, ...], tuple[tuple[int, ...], dict[int, int]]] = {}
        self._laid_regions: dict[tuple[int, ...], tuple[int, ...]] = {}
        self._laid_near: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}

    def _forget_own(self) -> None:
        self._laid.clear()
        self._laid_regions.clear()
        self._laid_near.clear()

    def _wall(self, layout: Sequence[int]) -> tuple[tuple[int, ...], dict[int, int]]:
        key = tuple(layout)
        found = self._laid.get(key)
        if found is None:
            run = tuple(s for f in key for s in self.face_spots[f])
            made(self, 3 * OBJECT + len(key) + len(run) + ENTRY * (len(run) + 1))  # (the key, the run, its places)
            if len(self._laid) >= 1024:  # faces in every order: bounded all the same
                self._laid.clear()
            found = self._laid[key] = (run, {s: i for i, s in enumerate(run)})
        return found

    def wall_spots(self, layout: Sequence[int]) -> tuple[int, ...]:
        """The spots of the faces laid, from the left end to the right."""
        return self._wall(layout)[0]

    def wall_neighbours(self, layout: Sequence[int], spot: int) -> tuple[int, ...]:
        """The spots just left and right of `spot` along the wall (none if it is not laid)."""
        near = self._laid_near.get(layout if isinstance(layout, tuple) else tuple(layout))
        if near is None:
            near = self._near_along(layout)
        return near[spot]

    def _near_along(self, layout: Sequence[int]) -> tuple[tuple[int, ...], ...]:
        """Each spot's neighbours along the wall of `layout` (none for a spot not laid), made once per
        layout: rules ask them of every space at every listing."""
        key = tuple(layout)
        run, place = self._wall(key)
        made(self, (len(self.spots) + 2) * OBJECT + len(key) + 2 * len(run) + ENTRY)  # (a tuple per spot)
        if len(self._laid_near) >= 1024:  # (as `_laid`: bounded)
            self._laid_near.clear()
        near: list[tuple[int, ...]] = [() for _ in self.spots]
        for spot, i in place.items():
            near[spot] = run[max(i - 1, 0):i] + run[i + 1:i + 2]
        found = self._laid_near[key] = tuple(near)
        return found

    def wall_runs(self, layout: Sequence[int], spots: Iterable[int]) -> tuple[tuple[int, ...], ...]:
        """The unbroken runs of laid spaces among `spots`, each left to right, the leftmost run
        first: spaces side by side along the wall, across the joins of the faces laid too."""
        among = set(spots)
        runs: list[tuple[int, ...]] = []
        run: list[int] = []
        for s in self.wall_spots(layout):
            if s in among:
                run.append(s)
            elif run:
                runs.append(tuple(run))
                run = []
        if run:
            runs.append(tuple(run))
        return tuple(runs)

    def wall_regions(self, layout: Sequence[int], kind: int) -> tuple[int, ...]:
        """The regions of one kind with a spot on the wall, left to right (by their leftmost spot)."""
        key = (*layout, -1 - kind)  # (a layout holds no negative face)
        found = self._laid_regions.get(key)
        if found is None:
            seen: dict[int, None] = {}
            for s in self.wall_spots(layout):
                for r in self.regions_at[kind][s]:
                    seen.setdefault(r)
            made(self, 2 * OBJECT + len(key) + len(seen) + ENTRY)
            if len(self._laid_regions) >= 1024:
                self._laid_regions.clear()
            found = self._laid_regions[key] = tuple(seen)
        return found

    def attach(self, layout: Sequence[int], face: int, right: bool) -> tuple[int, ...]:
        """The layout with `face` laid at its right (else left) end; its piece must not be laid."""
        piece = self.face_piece[face]
        if any(self.face_piece[f] == piece for f in layout):
            # (a fault of the rules, told as a game error at the rule line that laid it)
            raise ValueError(f"piece {self.piece_names[piece]} of the wall is already laid: "
                             f"face {self.face_names[face]} cannot be added")
        return (*layout, face) if right else (face, *layout)
