"""Section 1 of notebook 04: the Weather data of 003 (Table 1) learned by hand, with the
workbench's own criteria (``workbench.core.criteria``): entropy, conditional entropy and
information gain of every attribute (Table 2), and the tree of Figures 1-3."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...core.criteria import entropy_bits, merit
from ...core.params import CRIT_INFO_GAIN

ATTRIBUTES = ("Outlook", "Temperature", "Humidity", "Windy")
#: Table 1 of 003, as printed (Play Golf is the class)
TABLE_1 = [
    ("Rainy", "Hot", "High", "False", "No"),
    ("Rainy", "Hot", "High", "True", "No"),
    ("Overcast", "Hot", "High", "False", "Yes"),
    ("Sunny", "Mild", "High", "False", "Yes"),
    ("Sunny", "Cool", "Normal", "False", "Yes"),
    ("Sunny", "Cool", "Normal", "True", "No"),
    ("Overcast", "Cool", "Normal", "True", "Yes"),
    ("Rainy", "Mild", "High", "False", "No"),
    ("Rainy", "Cool", "Normal", "False", "Yes"),
    ("Sunny", "Mild", "Normal", "False", "Yes"),
    ("Rainy", "Mild", "Normal", "True", "Yes"),
    ("Overcast", "Mild", "High", "True", "Yes"),
    ("Overcast", "Hot", "Normal", "False", "Yes"),
    ("Sunny", "Mild", "High", "True", "No"),
]
#: Table 2 of 003 and the two numbers of its worked example, as printed
PRINTED_GAIN = {"Outlook": 0.25, "Temperature": 0.05, "Humidity": 0.17, "Windy": 0.07}
PRINTED_H_ROOT = 0.94
PRINTED_H_OUTLOOK = 0.69


def weather_table() -> pd.DataFrame:
    """Table 1 as a DataFrame of categorical columns (class column ``Play Golf``)."""
    df = pd.DataFrame(TABLE_1, columns=[*ATTRIBUTES, "Play Golf"])
    return df.astype("category")


def _counts(rows: pd.DataFrame, attribute: str) -> tuple[np.ndarray, np.ndarray, list]:
    """Class counts [No, Yes] at the node and per value of ``attribute`` (values sorted)."""
    classes = ["No", "Yes"]
    pre = np.array([(rows["Play Golf"] == c).sum() for c in classes], float)
    values = sorted(rows[attribute].unique())
    post = np.array(
        [
            [((rows[attribute] == v) & (rows["Play Golf"] == c)).sum() for c in classes]
            for v in values
        ],
        float,
    )
    return pre, post, values


def gain_table(rows: pd.DataFrame | None = None) -> pd.DataFrame:
    """Table 2 recomputed: H(node), H(node | A) (eq. 5) and G(node, A) = H(node) - H(node | A)
    (eq. 6) of every attribute, in bits, with the workbench's criteria (``entropy_bits`` and the
    kernels' ``split_merit``), next to the thesis's printed gain."""
    rows = weather_table() if rows is None else rows
    out = []
    for a in ATTRIBUTES:
        pre, post, values = _counts(rows, a)
        if len(values) < 2:
            continue
        h = entropy_bits(pre)
        g = merit(pre, post, len(values), CRIT_INFO_GAIN, 0.0)
        out.append(
            {
                "attribute": a,
                "H(node)": h,
                "H(node | A)": h - g,
                "G(node, A)": g,
                "printed G": PRINTED_GAIN.get(a, np.nan) if len(rows) == len(TABLE_1) else np.nan,
            }
        )
    df = pd.DataFrame(out).set_index("attribute")
    if len(rows) == len(TABLE_1):
        df["agrees (2 decimals)"] = (df["G(node, A)"].round(2) - df["printed G"]).abs() < 1e-9
    return df


def id3(rows: pd.DataFrame | None = None, depth: int = 0) -> dict:
    """The tree of Figures 1-3: split on the attribute of largest information gain
    (:func:`gain_table`) until a node is pure.  Nested dicts: ``{"counts", "attribute",
    "gain", "children": {value: subtree}}``."""
    rows = weather_table() if rows is None else rows
    counts = {c: int((rows["Play Golf"] == c).sum()) for c in ("No", "Yes")}
    node = {"counts": counts, "n": len(rows)}
    if min(counts.values()) == 0:
        node["leaf"] = max(counts, key=counts.get)
        return node
    table = gain_table(rows)
    best = table["G(node, A)"].idxmax()
    node["attribute"] = best
    node["gain"] = float(table.loc[best, "G(node, A)"])
    node["children"] = {
        v: id3(rows[rows[best] == v], depth + 1) for v in sorted(rows[best].unique())
    }
    return node


def tree_dot(tree: dict | None = None) -> str:
    """Graphviz DOT source of :func:`id3`'s tree (Figure 3)."""
    tree = id3() if tree is None else tree
    lines = ["digraph weather {", '  node [fontname="Helvetica", fontsize=11];']
    counter = [0]

    def add(node) -> str:
        name = f"n{counter[0]}"
        counter[0] += 1
        c = node["counts"]
        if "leaf" in node:
            label = f"{node['leaf']}\\n(No {c['No']}, Yes {c['Yes']})"
            lines.append(f'  {name} [shape=box, style=rounded, label="{label}"];')
        else:
            label = (
                f"{node['attribute']}?\\nG = {node['gain']:.3f}\\n(No {c['No']}, Yes {c['Yes']})"
            )
            lines.append(f'  {name} [shape=ellipse, label="{label}"];')
            for v, child in node["children"].items():
                lines.append(f'  {name} -> {add(child)} [label="{v}"];')
        return name

    add(tree)
    lines.append("}")
    return "\n".join(lines)


def draw_tree(tree: dict | None = None, ax=None):
    """Figure 3 drawn with matplotlib (no Graphviz binary needed)."""
    import matplotlib.pyplot as plt

    tree = id3() if tree is None else tree
    if ax is None:
        _, ax = plt.subplots(figsize=(9, 4.2))
    leaves_x = [0]

    def place(node, depth):
        if "leaf" in node:
            node["_x"] = leaves_x[0]
            leaves_x[0] += 1
        else:
            xs = [place(ch, depth + 1) for ch in node["children"].values()]
            node["_x"] = float(np.mean(xs))
        node["_y"] = -depth
        return node["_x"]

    place(tree, 0)

    def draw(node):
        c = node["counts"]
        if "leaf" in node:
            text = f"{node['leaf']}\n(No {c['No']}, Yes {c['Yes']})"
            box = dict(boxstyle="round", fc="#e8f4e8" if node["leaf"] == "Yes" else "#f8e3e3")
        else:
            text = f"{node['attribute']}\nG = {node['gain']:.3f}\n(No {c['No']}, Yes {c['Yes']})"
            box = dict(boxstyle="square", fc="#eef")
            for v, ch in node["children"].items():
                ax.plot([node["_x"], ch["_x"]], [node["_y"], ch["_y"]], color="gray", zorder=0)
                ax.text(
                    (node["_x"] + ch["_x"]) / 2,
                    (node["_y"] + ch["_y"]) / 2,
                    v,
                    ha="center",
                    va="center",
                    fontsize=10,
                    bbox=dict(fc="white", ec="none"),
                )
                draw(ch)
        ax.text(node["_x"], node["_y"], text, ha="center", va="center", fontsize=10, bbox=box)

    draw(tree)
    ax.set_xlim(-0.7, leaves_x[0] - 0.3)
    ax.set_ylim(min_depth(tree) - 0.5, 0.5)
    ax.axis("off")
    ax.set_title("Figure 3 recomputed: the Weather tree (information gain, split until pure)")
    return ax


def min_depth(tree: dict) -> float:
    """The lowest y of the drawn tree (minus its depth)."""
    if "leaf" in tree:
        return tree["_y"]
    return min(min_depth(ch) for ch in tree["children"].values())


def hoeffding_weather(passes: int = 20):
    """The same data learned by the workbench's Hoeffding tree as a stream (Table 1 repeated
    ``passes`` times, grace period 14, tau = 1 so that the best attribute is taken at every
    attempt): it grows the tree of Figure 3.  Returns the fitted model."""
    from ...learners import HoeffdingTree

    df = weather_table()
    X = pd.concat([df[list(ATTRIBUTES)]] * passes, ignore_index=True)
    y = np.tile((df["Play Golf"] == "Yes").to_numpy().astype(int), passes)
    model = HoeffdingTree(
        grace_period=14,
        tau=1.0,
        criterion="info_gain",
        leaf_prediction="laplace",
        class_names=["No", "Yes"],
    )
    return model.fit(X, y)
