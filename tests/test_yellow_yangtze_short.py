"""Yellow & Yangtze's short two-player game (rules/yellow-yangtze/short.yaml), what its scenarios
(tests/scenarios/yellow-yangtze-short/) cannot show: that it is refused at three or four players
with one clear message, and that the bag holds 24 tiles fewer than the base game's under every
seed, not only the scenarios' seed 1."""

from __future__ import annotations

import pytest

import rulewright
from rulewright.runtime import BadSetup


@pytest.mark.parametrize("players", [3, 4])
def test_the_short_game_is_for_two_players_only(players: int) -> None:
    # « Lors d'une partie à deux joueurs, vous pouvez vous mettre d'accord pour raccourcir la partie »
    with pytest.raises(BadSetup, match=f"yellow-yangtze/short is played by 2 players, not {players}"):
        rulewright.load("yellow-yangtze/short").new_state(players, 1)


def test_the_short_game_takes_24_tiles_out_of_the_bag_into_the_box() -> None:
    # « en retirant au hasard et face cachée 24 tuiles du sac »: 131 tiles after the 7 capitals,
    # 12 behind the screens, 6 on the market: 113 in the bag, 89 in the short game's.
    base, short = rulewright.load("yellow-yangtze"), rulewright.load("yellow-yangtze/short")
    for seed in range(20):
        b, s = base.new_state(2, seed), short.new_state(2, seed)
        assert (len(b.bag), len(b.box)) == (113, 0)
        assert (len(s.bag), len(s.box)) == (89, 24)
        assert s.rack == b.rack and s.market == b.market, "the same setup before the 24 are taken out"
        assert sorted(s.bag + s.box) == sorted(b.bag)
