"""The night's worker processes (``pipelines.nightly.steps._Workers``): calls handed out
costliest first still give their results in call order."""

from __future__ import annotations

import operator

from pipelines.nightly.steps import _Workers


def test_calls_handed_out_costliest_first_give_results_in_call_order() -> None:
    calls = [(2, 3), (7, 1), (5, 5), (1, 9), (4, 4)]
    with _Workers(2) as pool:
        results = pool.run(operator.mul, calls, cost=lambda call: call[1])
    assert results == [6, 7, 25, 9, 16]


def test_one_worker_runs_the_calls_in_this_process_in_call_order() -> None:
    seen: list[int] = []

    def step(n: int) -> int:
        seen.append(n)
        return -n

    with _Workers(1) as pool:
        assert pool.run(step, [(3,), (1,), (2,)], cost=lambda call: call[0]) == [-3, -1, -2]
    assert seen == [3, 1, 2]
