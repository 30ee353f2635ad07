"""The default hand panel's choices, step by step (issue 51): a game's legal actions,
each with the labels of the steps by which it is chosen (GameWords.action_steps), offered
a step at a time. Actions that share their first labels are one button, and a click on it
offers the next labels of the actions under it (the suit after the card, the card called
after the card led), instead of every combination as a button of its own.

Pure: the cog (cogs/tables/api.py) makes the buttons and reads the clicks. A step is
named by an action under it and how many of its labels the step has taken (`index`,
`depth`): the same state lists the same actions, so the click finds them again."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


class Choice(NamedTuple):
    """One button of a step: an action (`depth` 0: the legal action at `first`), or a
    step further (the actions whose first `depth` labels are those of the action at
    `first`, the first of them)."""

    label: str
    first: int
    depth: int  # 0: the button plays the action at `first`
    actions: tuple[int, ...]  # the legal actions it leads to (the hint's is marked)

    @property
    def plays(self) -> bool:
        return self.depth == 0


def under(steps: Sequence[Sequence[str]], index: int, depth: int) -> list[int]:
    """The actions under a step: those whose first `depth` labels are the action at
    `index`'s (every action for depth 0); none for a step no action has."""
    if not 0 <= index < len(steps) or not 0 <= depth <= len(steps[index]):
        return []
    prefix = tuple(steps[index][:depth])
    return [i for i, labels in enumerate(steps) if tuple(labels[:depth]) == prefix]


def choices(steps: Sequence[Sequence[str]], labels: Sequence[str], index: int = 0,
            depth: int = 0) -> list[Choice]:
    """The buttons of the step named by `index` and `depth` (the first step by default),
    in the order of the legal actions: each next label once. A label that one action
    alone has plays it (worded by its whole label, `labels`, where it has later steps
    still, so that nothing it chooses is hidden); one that several share is a step. An
    action whose labels end at this step plays it, worded by its whole label."""
    found: dict[str, list[int]] = {}
    ended: list[tuple[int, str]] = []
    for i in under(steps, index, depth):
        if len(steps[i]) <= depth:
            ended.append((i, labels[i]))
        else:
            found.setdefault(steps[i][depth], []).append(i)
    out = [Choice(label, i, 0, (i,)) for i, label in ended]
    for label, group in found.items():
        first = group[0]
        if len(group) > 1:
            out.append(Choice(label, first, depth + 1, tuple(group)))
        else:
            whole = len(steps[first]) == depth + 1 and depth > 0
            out.append(Choice(label if whole else labels[first], first, 0, (first,)))
    return sorted(out, key=lambda choice: choice.actions[0])
