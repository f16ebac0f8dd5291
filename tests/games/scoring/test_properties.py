"""Properties of the replay over random valid parties (hypothesis, modest example counts)."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.scoring import PRESETS, get_preset, replay

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def parties(draw: st.DrawFn) -> dict[str, Any]:
    """A valid partie built donne by donne; crossers get a random decision."""
    key = draw(st.sampled_from(list(PRESETS)))
    preset = get_preset(key)
    count = draw(st.integers(preset.min_players, min(preset.max_players, 5)))
    players = [f"J{i}" for i in range(count)]
    config = {
        "prix_rachat": draw(st.integers(0, 500)),
        "mise_initiale": draw(st.integers(0, 333)),
        "valeur_point": draw(st.integers(0, 7)),
        "reglement": draw(st.sampled_from(["gagnant", "croise"])),
    }
    donnes: list[dict[str, Any]] = []
    for _ in range(draw(st.integers(0, 14))):
        current = replay(key, players, donnes, config, lenient=True)
        if current.over:
            break
        in_race = current.states[-1].in_race if current.states else players
        win = draw(st.sampled_from(list(preset.all_win_types())))
        winner = None if win == "talon_epuise" else draw(st.sampled_from(in_race))
        jokers = st.integers(0, min(preset.deck_jokers, 2))
        hands = {
            p: {"points": draw(st.integers(1, 70)), "jokers": draw(jokers)}
            for p in in_race
            if p != winner
        }
        new = {"winner": winner, "win": win, "hands": hands}
        pending = replay(key, players, [*donnes, new], config, lenient=True).pending
        if pending:
            new["rachat"] = {p.player: draw(st.booleans()) for p in pending}
        donnes.append(new)
    return {"preset": key, "players": players, "config": config, "donnes": donnes,
            "ended": draw(st.booleans())}  # fmt: skip


def _replay(partie: dict[str, Any], **overrides: Any):
    args = {**partie, **overrides}
    return replay(args["preset"], args["players"], args["donnes"], args["config"],
                  ended=args["ended"])  # fmt: skip


@SETTINGS
@given(parties())
def test_nets_sum_to_zero_and_transfers_settle_them(partie: dict[str, Any]) -> None:
    final = _replay(partie).final
    assert sum(final.net.values()) == 0
    balance = dict.fromkeys(final.net, 0)
    transfers = final.transfers()
    for payer, payee, amount in transfers:
        assert amount > 0
        balance[payer] -= amount
        balance[payee] += amount
    assert balance == final.net
    assert len(transfers) <= max(0, sum(1 for n in final.net.values() if n) - 1)


@SETTINGS
@given(parties())
def test_totals_move_only_by_points_or_a_restart(partie: dict[str, Any]) -> None:
    result = _replay(partie)
    previous = dict.fromkeys(partie["players"], 0)
    for state in result.states:
        for player in partie["players"]:
            if player in state.points:
                assert state.totals_before_rachat[player] == previous[player] + state.points[player]
                expected = state.totals_before_rachat[player]
                if player in state.rachats:
                    expected = state.rachats[player].restart
                assert state.totals[player] == expected
            else:
                assert state.totals[player] == previous[player]
        previous = state.totals
    assert result.final.pot == (result.states[-1].pot if result.states else result.final.pot)


@SETTINGS
@given(parties())
def test_nobody_re_enters_after_elimination(partie: dict[str, Any]) -> None:
    out: set[str] = set()
    for state in _replay(partie).states:
        assert not out & set(state.in_race)
        assert not out & set(state.points)
        out |= set(state.eliminated)
        assert not out & set(state.in_race)


@SETTINGS
@given(parties(), st.data())
def test_replaying_a_prefix_gives_the_same_states(partie: dict[str, Any], data: st.DataObject):
    full = _replay(partie, ended=False)
    k = data.draw(st.integers(0, len(partie["donnes"])))
    prefix = _replay(partie, donnes=partie["donnes"][:k], ended=False)
    assert prefix.states == full.states[:k]


@SETTINGS
@given(parties())
def test_every_crosser_of_a_donne_restarts_at_the_same_reference(partie: dict[str, Any]) -> None:
    for state in _replay(partie).states:
        restarts = {r.restart for r in state.rachats.values()}
        assert restarts <= {state.reference}
        if state.reference is not None:
            others = [t for p, t in state.totals_before_rachat.items() if p not in state.crossings]
            assert state.reference == max(others)
