"""Evaluations per second: ``replayer.poker.evaluator`` vs PokerKit on the same hands.

    .venv/bin/python benchmarks/evaluator.py [--hands N] [--pokerkit-hands M] [--seed S]
                                             [--repeat R] [--profile]

Deals seeded random hands from the 52-card deck: hold'em (2 hole + 5 board, best 5 of 7,
PT-217/2007 n.º 94) and omaha (4 hole + 5 board, exactly 2 + 3, MO-97/2010 art.10(1));
also 5-card ``rank_five`` and "póquer sintético" (2 + 5 from 28 cards, PT-217/2007
n.º 97). PokerKit (``StandardHighHand`` / ``OmahaHoldemHand.from_game``) is timed on the
first M hands of the same list. Times are CPU seconds (``time.process_time``), best of R
runs, so a busy machine skews both sides alike; the first call per ranking (table
build) is timed separately and kept out of the rates.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from replayer.poker.cards import full_deck, synthetic_deck
from replayer.poker.evaluator import best_any, best_two_plus_three, rank_five
from replayer.rankings import STANDARD, SYNTHETIC

Deal = tuple[list[str], list[str]]


def deal(rng: random.Random, deck: Sequence[str], n_hole: int, n_board: int, n: int) -> list[Deal]:
    """n random (hole, board) pairs without repeated cards within a pair."""
    out = []
    for _ in range(n):
        cards = rng.sample(deck, n_hole + n_board)
        out.append((cards[:n_hole], cards[n_hole:]))
    return out


def best_rate(run: Callable[[], object], count: int, repeat: int) -> float:
    """Evaluations per CPU second, best of ``repeat`` runs."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return count / best if best > 0 else float("inf")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--hands", type=int, default=100_000, help="hands per game (ours)")
    parser.add_argument("--pokerkit-hands", type=int, default=2_000, help="hands (PokerKit)")
    parser.add_argument("--seed", type=int, default=20100809)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="cProfile our omaha loop")
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    deck = full_deck()
    holdem = deal(rng, deck, 2, 5, args.hands)
    omaha = deal(rng, deck, 4, 5, args.hands)
    synthetic = deal(rng, synthetic_deck(), 2, 5, args.hands)
    fives = [hole + board[:3] for hole, board in holdem]

    for ranking in (STANDARD, SYNTHETIC):
        start = time.perf_counter()
        rank_five(synthetic_deck()[-5:], ranking)
        print(f"table build {ranking.name}: {time.perf_counter() - start:.3f} s (once)")

    def ours_holdem() -> None:
        for hole, board in holdem:
            best_any(hole, board)

    def ours_omaha() -> None:
        for hole, board in omaha:
            best_two_plus_three(hole, board)

    def ours_five() -> None:
        for cards in fives:
            rank_five(cards)

    def ours_synthetic() -> None:
        for hole, board in synthetic:
            best_two_plus_three(hole, board, SYNTHETIC)

    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(ours_omaha)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(12)

    rows: list[tuple[str, float, float | None]] = []
    n = args.hands
    rows.append(("rank_five (5 cards)", best_rate(ours_five, n, args.repeat), None))
    rows.append(("synthetic 2+5, 2+3", best_rate(ours_synthetic, n, args.repeat), None))

    try:
        from pokerkit import OmahaHoldemHand, StandardHighHand
    except ImportError:  # pragma: no cover - pokerkit is a test extra
        StandardHighHand = OmahaHoldemHand = None

    m = min(args.pokerkit_hands, n)
    for label, ours, hands, reference in (
        ("hold'em 2+5, best 5 of 7", ours_holdem, holdem, StandardHighHand),
        ("omaha 4+5, exactly 2+3", ours_omaha, omaha, OmahaHoldemHand),
    ):
        rate = best_rate(ours, n, args.repeat)
        theirs = None
        if reference is not None and m > 0:
            subset = hands[:m]

            def pokerkit(subset: list[Deal] = subset, reference: type = reference) -> None:
                for hole, board in subset:
                    reference.from_game("".join(hole), "".join(board))

            theirs = best_rate(pokerkit, m, 1)
        rows.append((label, rate, theirs))

    print(f"{'evaluation':28s} {'ours/s':>12s} {'pokerkit/s':>12s} {'ratio':>8s}")
    for label, rate, theirs in rows:
        if theirs is None:
            print(f"{label:28s} {rate:12,.0f} {'-':>12s} {'-':>8s}")
        else:
            print(f"{label:28s} {rate:12,.0f} {theirs:12,.0f} {rate / theirs:7.0f}x")
    print(f"({n:,} hands ours, {m:,} PokerKit, seed {args.seed}, best of {args.repeat})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
