"""Widgets: the ipywidgets panel of a stepper, its parameter controls, the step / play controls
shared by several steppers (:class:`Controls`) and the side-by-side view (:class:`Compare`)."""

from __future__ import annotations

import asyncio
import math
import time
from dataclasses import dataclass
from html import escape

import ipywidgets as widgets
import numpy as np

from ..errors import error_html, guarded
from ..snapshot import picture_bundle, tree_picture
from ..view import tree_widget, view_control
from .drawing import _fmt_int

#: speed label -> (instances per tick, seconds per tick)
SPEEDS = {
    "1 / s": (1, 1.0),
    "2 / s": (1, 0.5),
    "5 / s": (1, 0.2),
    "10 / s": (1, 0.1),
    "50 / s": (5, 0.1),
    "100 / s": (10, 0.1),
    "1,000 / s": (100, 0.1),
    "10,000 / s": (1000, 0.1),
}

#: the parameter controls a stepper shows when none are declared (those the learner has)
DEFAULT_PARAMS = {
    "delta": (1e-10, 1e-1, "log"),
    "tau": (0.0, 0.2),
    "grace_period": (10, 500),
    "criterion": ["info_gain", "gini"],
    "leaf_prediction": ["nba", "mc", "nb"],
}


# --------------------------------------------------------------------------- parameters
@dataclass
class ParamSpec:
    """One parameter control: a numeric range (linear or log) or a list of choices."""

    name: str
    kind: str  # "log", "float", "int", "choice", "bool"
    low: float = 0.0
    high: float = 1.0
    step: float | None = None
    choices: tuple = ()

    @classmethod
    def parse(cls, name, spec) -> "ParamSpec":
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"parameter names must be identifiers; got {name!r}")
        if isinstance(spec, ParamSpec):
            return spec
        if spec is bool:
            return cls(name, "bool")
        if isinstance(spec, list):
            if not spec:
                raise ValueError(f"parameter {name!r}: the list of choices is empty")
            return cls(name, "choice", choices=tuple(spec))
        if isinstance(spec, tuple) and len(spec) in (2, 3):
            lo, hi = spec[0], spec[1]
            third = spec[2] if len(spec) == 3 else None
            if not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                for v in (lo, hi)
            ):
                raise ValueError(
                    f"parameter {name!r}: range bounds must be finite numbers; got {spec!r}"
                )
            if not lo < hi:
                raise ValueError(f"parameter {name!r}: low must be below high; got {spec!r}")
            if third == "log":
                if lo <= 0:
                    raise ValueError(f"parameter {name!r}: a log range needs low > 0; got {spec!r}")
                return cls(name, "log", float(lo), float(hi))
            if third is not None and not (isinstance(third, (int, float)) and third > 0):
                raise ValueError(
                    f"parameter {name!r}: the third entry must be 'log' or a "
                    f"positive step; got {third!r}"
                )
            if (
                isinstance(lo, int)
                and isinstance(hi, int)
                and (third is None or isinstance(third, int))
            ):
                return cls(name, "int", lo, hi, third or 1)
            return cls(
                name, "float", float(lo), float(hi), float(third) if third else (hi - lo) / 200
            )
        raise ValueError(
            f"parameter {name!r}: expected (low, high), (low, high, 'log'), "
            f"(low, high, step) or a list of choices; got {spec!r}"
        )

    def widget(self, value):
        style = {"description_width": "initial"}
        lay = widgets.Layout(width="250px")
        if self.kind == "choice":
            options = list(self.choices)
            if value not in options:
                options.append(value)
            return widgets.Dropdown(
                options=options,
                value=value,
                description=self.name,
                style=style,
                layout=widgets.Layout(width="210px"),
            )
        if self.kind == "bool":
            return widgets.Checkbox(value=bool(value), description=self.name, style=style)
        if self.kind == "log":
            lo, hi = math.log10(self.low), math.log10(self.high)
            v = math.log10(value) if value and value > 0 else lo
            lo, hi = min(lo, v), max(hi, v)
            return widgets.FloatLogSlider(
                value=value,
                base=10,
                min=lo,
                max=hi,
                step=0.25,
                description=self.name,
                readout_format=".1e",
                continuous_update=False,
                style=style,
                layout=lay,
            )
        lo, hi = min(self.low, value), max(self.high, value)
        if self.kind == "int":
            return widgets.IntSlider(
                value=int(value),
                min=int(lo),
                max=int(hi),
                step=int(self.step or 1),
                description=self.name,
                continuous_update=False,
                style=style,
                layout=lay,
            )
        return widgets.FloatSlider(
            value=float(value),
            min=lo,
            max=hi,
            step=self.step,
            description=self.name,
            readout_format=".3g",
            continuous_update=False,
            style=style,
            layout=lay,
        )

    def default(self):
        if self.kind == "choice":
            return self.choices[0]
        if self.kind == "bool":
            return False
        return int(self.low) if self.kind == "int" else self.low


class _Widgets:
    """The ipywidgets panel of :class:`~workbench.viz.TreeStepper` (a mixin)."""

    @property
    def widget(self):
        """The ipywidgets panel (built on first use)."""
        if self._ui is None:
            self._controls = Controls([self])
            self._build_ui(self._controls)
            self.redraw()
        return self._ui["panel"]

    def panel(self, controls=None, layout: str = "wide"):
        """Build the panel, with ``controls`` (a shared :class:`Controls`) or none."""
        self._build_ui(controls, layout)
        self.redraw()
        return self._ui["panel"]

    def _build_ui(self, controls, layout: str = "wide") -> None:
        title = widgets.HTML(self._heading())
        tree = tree_widget(self.dot())
        instance = widgets.HTML()
        instance.add_class("wb-instance-panel")
        acc = widgets.HTML()
        acc.add_class("wb-accuracy")
        split = widgets.HTML()
        split.add_class("wb-split-chart")
        caption = widgets.HTML()
        status = widgets.HTML()
        status.add_class("wb-status")
        param_widgets = {}
        for name, spec in self.specs.items():
            w = spec.widget(self.params[name])
            w.add_class(f"wb-param-{name}")
            w.observe(self._on_param, names="value")
            param_widgets[name] = w
        params_box = widgets.HBox(
            list(param_widgets.values()), layout=widgets.Layout(flex_flow="row wrap")
        )
        side = widgets.VBox(
            [instance, acc, split, caption], layout=widgets.Layout(width="400px", min_width="400px")
        )
        # a panel of its own (wide) keeps Graphviz's size and scrolls sideways; in a column of
        # a side-by-side view a tree wider than the column is shrunk to it, so that its root
        # is in view (the switch changes either)
        switch, hint, holder = view_control(tree, "full size" if layout == "wide" else "fit")
        tree_box = widgets.VBox(
            [widgets.HBox([switch, hint], layout=widgets.Layout(align_items="center")), holder],
            layout=widgets.Layout(flex="1 1 auto", min_width="0", overflow="auto"),
        )
        if layout == "wide":
            body = widgets.HBox([tree_box, side], layout=widgets.Layout(width="100%"))
        else:
            body = widgets.VBox([tree_box, side])
        rows = [title]
        if controls is not None and len(controls.targets) == 1:
            rows.append(controls.bar)
        rows += [params_box, body, status]
        panel = widgets.VBox(rows, layout=widgets.Layout(flex="1 1 0", min_width="0"))
        panel.add_class("wb-stepper")
        self._ui = {
            "panel": panel,
            "title": title,
            "tree": tree,
            "view": switch,
            "holder": holder,
            "instance": instance,
            "acc": acc,
            "split": split,
            "caption": caption,
            "status": status,
            "params": param_widgets,
        }
        self._controls = controls

    def _on_param(self, change) -> None:
        if getattr(self, "_syncing", False):
            return
        name = next(n for n, w in self._ui["params"].items() if w is change.owner)
        value = change.new
        spec = self.specs[name]
        if spec.kind == "int":
            value = int(value)
        try:
            self.set_params(**{name: value})
        except ValueError as err:
            self._ui["status"].value = f"<span class='wb-bad'>{escape(str(err))}</span>"
        except Exception as err:  # noqa: BLE001 - a callback: shown in the panel, not lost
            self._ui["status"].value = error_html(err, f"setting {name} = {value!r}")

    def _sync_param_widgets(self) -> None:
        if self._ui is None:
            return
        self._syncing = True
        try:
            for name, w in self._ui["params"].items():
                if w.value != self.params[name]:
                    w.value = self.params[name]
        finally:
            self._syncing = False

    def redraw(self) -> None:
        """Update every part of the panel (no-op before the panel is built)."""
        if self._ui is None:
            return
        ui = self._ui
        ui["title"].value = self._heading()
        ui["tree"].dot_source = self.dot()
        ui["acc"].value = self.accuracy_svg()
        ui["split"].value = self.split_svg()
        ui["caption"].value = self.split_caption()
        tm = self.timings
        ui["status"].value = (
            f"<span class='wb-muted' style='font-size:11px'>t = "
            f"{_fmt_int(self.t)} / {_fmt_int(self.n)} · last action: learn "
            f"{tm['learn_ms']:.1f} ms, draw {tm['draw_ms']:.1f} ms</span>"
        )
        # last: the browser applies updates in order, so once the readout (data-t) shows the
        # new position, the charts already do
        ui["instance"].value = self.instance_html()
        if self._controls is not None:
            self._controls.refresh()

    def picture_html(self, layout: str = "wide") -> str:
        """The panel's current state as static HTML (tree as SVG, charts, caption): what the
        rendered book shows in place of the live widget (:mod:`workbench.viz.snapshot`)."""
        side = (
            f"<div class='wb-snapshot-side' style='flex:0 0 400px; max-width:100%'>"
            f"{self.instance_html()}{self.accuracy_svg()}{self.split_svg()}"
            f"{self.split_caption()}</div>"
        )
        # wide: tree and side by side (wrapping under each other in a narrow page); tall: the
        # side under the tree, each as high as its content
        grow = "1 1 300px" if layout == "wide" else "0 0 auto"
        picture = tree_picture(self.dot(), fit=layout != "wide")
        tree = f"<div style='flex:{grow}; min-width:0'>{picture}</div>"
        wrap = "wrap" if layout == "wide" else "nowrap; flex-direction:column"
        return (
            f"<div class='wb-stepper-snapshot'>{self._heading()}"
            f"<div style='display:flex; flex-wrap:{wrap}; gap:8px'>{tree}{side}</div></div>"
        )

    def _repr_mimebundle_(self, **kwargs):
        return picture_bundle(self.widget._repr_mimebundle_(**kwargs), self.picture_html())


# --------------------------------------------------------------------------- controls
class Controls:
    """Step 1, step k, go to t, reset, play/pause and speed, for one or several steppers at
    once.  An error inside a button's callback is shown under the buttons (:attr:`error`),
    with where each stepper stands, instead of going to JupyterLab's log."""

    def __init__(self, targets, k: int | None = None):
        self.targets = list(targets)
        k = k if k is not None else self.targets[0].k
        self.step1 = widgets.Button(
            description="step 1",
            icon="step-forward",
            tooltip="learn the next instance",
            layout=widgets.Layout(width="90px"),
        )
        self.stepk = widgets.Button(
            description=f"step {k:,}",
            icon="fast-forward",
            tooltip="learn the next k instances",
            layout=widgets.Layout(width="120px"),
        )
        self.k_box = widgets.BoundedIntText(
            value=k,
            min=1,
            max=self.targets[0].n,
            description="k",
            style={"description_width": "15px"},
            layout=widgets.Layout(width="110px"),
        )
        self.reset_button = widgets.Button(
            description="reset",
            icon="undo",
            tooltip="back to the start with a fresh learner",
            layout=widgets.Layout(width="80px"),
        )
        self.play_button = widgets.ToggleButton(
            value=False,
            description="play",
            icon="play",
            tooltip="step continuously at the chosen speed",
            layout=widgets.Layout(width="85px"),
        )
        self.speed = widgets.SelectionSlider(
            options=list(SPEEDS),
            value="10 / s",
            description="speed",
            continuous_update=False,
            style={"description_width": "40px"},
            layout=widgets.Layout(width="230px"),
        )
        self.goto = widgets.BoundedIntText(
            value=0,
            min=0,
            max=self.targets[0].n,
            description="go to t",
            tooltip="type a position and press Enter (or go): the learners replay the stream "
            "to it in one kernel call",
            style={"description_width": "48px"},
            layout=widgets.Layout(width="150px"),
        )
        self.go_button = widgets.Button(
            description="go",
            tooltip="replay the stream to the typed position (forward or back)",
            layout=widgets.Layout(width="46px"),
        )
        self.position = widgets.HTML()
        self.error = widgets.HTML(layout=widgets.Layout(width="100%"))
        for w, css in (
            (self.step1, "wb-step1"),
            (self.stepk, "wb-stepk"),
            (self.reset_button, "wb-reset"),
            (self.play_button, "wb-play"),
            (self.speed, "wb-speed"),
            (self.k_box, "wb-k"),
            (self.goto, "wb-goto"),
            (self.go_button, "wb-go"),
            (self.position, "wb-position"),
            (self.error, "wb-error-box"),
        ):
            w.add_class(css)
        self.step1.on_click(guarded(lambda _: self.step(1), self._show_error, "step 1"))
        self.stepk.on_click(
            guarded(lambda _: self.step(self.k_box.value), self._show_error, "step k")
        )
        self.go_button.on_click(
            guarded(lambda _: self.go_to(self.goto.value), self._show_error, "go to t")
        )
        self.goto.observe(
            guarded(self._on_goto, self._show_error, "go to t"),
            names="value",
        )
        self.reset_button.on_click(guarded(lambda _: self.reset(), self._show_error, "reset"))
        self.k_box.observe(self._on_k, names="value")
        self.play_button.observe(self._on_play, names="value")
        self.bar = widgets.HBox(
            [
                self.step1,
                self.stepk,
                self.k_box,
                self.goto,
                self.go_button,
                self.reset_button,
                self.play_button,
                self.speed,
                self.position,
                self.error,
            ],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
        )
        self.bar.add_class("wb-controls")
        self._task = None
        self._running = False
        self.refresh()

    @property
    def t(self) -> int:
        return self.targets[0].t

    def step(self, k: int = 1) -> None:
        try:
            for s in self.targets:
                s.step(k)
        finally:
            self.refresh()

    def _on_goto(self, change) -> None:
        if not getattr(self, "_syncing", False):  # not the box shown the new position
            self.go_to(change.new)

    def go_to(self, t: int) -> None:
        """Every stepper to position ``t`` (replaying from the start when ``t`` is behind)."""
        t = int(t)
        try:
            for s in self.targets:
                s.run_to(min(max(t, 0), s.n))
        finally:
            self.refresh()

    def reset(self) -> None:
        self.play_button.value = False
        try:
            for s in self.targets:
                s.reset()
        finally:
            self.refresh()

    def _show_error(self, html: str) -> None:
        """Show a callback's error under the buttons (with where each stepper stands, when
        they no longer stand together); an empty ``html`` clears it."""
        ts = [s.t for s in self.targets]
        if html and len(set(ts)) > 1:
            where = ", ".join(
                f"{escape(str(getattr(s, 'title', None) or type(s.model).__name__))} at t = {t:,}"
                for s, t in zip(self.targets, ts)
            )
            html += f"<div class='wb-error'>The steppers now stand apart: {where}.</div>"
        self.error.value = html

    def _on_k(self, change) -> None:
        k = int(change.new)
        self.stepk.description = f"step {k:,}"
        for s in self.targets:
            s.k = k

    def refresh(self) -> None:
        done = all(s.done for s in self.targets)
        self.step1.disabled = self.stepk.disabled = done
        ts = [s.t for s in self.targets]
        t = min(ts)
        apart = (
            " <span class='wb-bad'>(apart: " + ", ".join(f"{v:,}" for v in ts) + ")</span>"
            if len(set(ts)) > 1
            else ""
        )
        self.position.value = (
            f"<span class='wb-pos' data-t='{t}'>&nbsp;t = <b>{t:,}</b> of "
            f"{self.targets[0].n:,}{' (end)' if done else ''}{apart}</span>"
        )
        if hasattr(self, "goto") and self.goto.value != t:
            self._syncing = True  # the box shows where the steppers stand
            try:
                self.goto.value = t
            finally:
                self._syncing = False
        if done and self.play_button.value:
            self.play_button.value = False

    # play / pause: a coroutine on the kernel's event loop, one step per tick
    def _on_play(self, change) -> None:
        self.play_button.icon = "pause" if change.new else "play"
        self.play_button.description = "pause" if change.new else "play"
        if change.new and not self._running:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # no event loop (plain Python): nothing to drive the ticks
                self.play_button.value = False
                return
            self._task = loop.create_task(self.play())

    async def play(self, ticks: int | None = None) -> int:
        """Step at the chosen speed until paused, the stream ends or ``ticks`` ticks ran;
        returns the number of ticks."""
        done = 0
        self._running = True
        if ticks is not None:
            self.play_button.value = True
        try:
            while (
                self.play_button.value
                and not all(s.done for s in self.targets)
                and (ticks is None or done < ticks)
            ):
                k, pause = SPEEDS[self.speed.value]
                start = time.perf_counter()
                try:
                    self.step(k)
                except Exception as err:  # show it: nobody awaits this task
                    self._show_error(error_html(err, "play"))
                    break
                done += 1
                await asyncio.sleep(max(0.0, pause - (time.perf_counter() - start)))
        finally:
            self._running = False
            if ticks is not None or all(s.done for s in self.targets):
                self.play_button.value = False
        return done


class Compare:
    """Several steppers on the same stream, side by side, one set of step controls: every
    action moves all of them, so they always stand at the same instance."""

    def __init__(self, steppers, *, k: int | None = None):
        steppers = list(steppers)
        if len(steppers) < 2:
            raise ValueError("compare needs at least two steppers")
        # a TreeStepper (this module is below it: what Compare needs of one is its panel)
        if not all(isinstance(s, _Widgets) and hasattr(s, "step") for s in steppers):
            raise ValueError("compare takes TreeStepper objects")
        first = steppers[0]
        for s in steppers[1:]:
            if s.n != first.n or not (
                np.array_equal(s.y, first.y) and np.array_equal(s.X, first.X, equal_nan=True)
            ):
                raise ValueError("the steppers must run on the same stream (X, y)")
        if len({id(s) for s in steppers}) != len(steppers):
            raise ValueError("the same stepper appears twice")
        t = max(s.t for s in steppers)
        for s in steppers:  # line them up
            if s.t < t:
                s.step(t - s.t)
        self.steppers = steppers
        self.controls = Controls(steppers, k=k)
        self._box = None

    @property
    def t(self) -> int:
        return self.steppers[0].t

    def step(self, k: int = 1) -> "Compare":
        self.controls.step(k)
        return self

    def reset(self) -> "Compare":
        self.controls.reset()
        return self

    @property
    def widget(self):
        if self._box is None:
            panels = [s.panel(self.controls, layout="tall") for s in self.steppers]
            self._box = widgets.VBox(
                [self.controls.bar, widgets.HBox(panels, layout=widgets.Layout(width="100%"))]
            )
            self._box.add_class("wb-compare")
            self.controls.refresh()
        return self._box

    def picture_html(self) -> str:
        """Every stepper's picture side by side (static HTML, see :meth:`TreeStepper.picture_html`)."""
        cells = "".join(
            "<div style='flex:1 1 420px; min-width:0; overflow-x:auto'>"
            f"{s.picture_html(layout='tall')}</div>"
            for s in self.steppers
        )
        return (
            f"<div class='wb-compare-snapshot' style='display:flex; flex-wrap:wrap; gap:12px'>"
            f"{cells}</div>"
        )

    def _repr_mimebundle_(self, **kwargs):
        return picture_bundle(self.widget._repr_mimebundle_(**kwargs), self.picture_html())


def side_by_side(*steppers, k: int | None = None) -> Compare:
    """``side_by_side(a, b)``: two (or more) steppers sharing one set of step controls."""
    if len(steppers) == 1 and isinstance(steppers[0], (list, tuple)):
        steppers = tuple(steppers[0])
    return Compare(steppers, k=k)
