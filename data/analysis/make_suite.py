"""Generates the analysis task suite: small data files, the requests, their checkable answers and reference solutions.

Run with the sandbox venv: .tools/sandbox-py/bin/python data/analysis/make_suite.py
Outputs (all in this folder): files/ (what a request's workspace gets), tasks.json (requests: what the agent sees),
answers.json (expected results: never shown to the agent), reference.json (solutions used only by the scripted model).
"""
import json
import math
import random
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.cluster import KMeans
from sklearn.metrics import silhouette_score

HERE = Path(__file__).parent
FILES = HERE / "files"
FILES.mkdir(exist_ok=True)
rng = random.Random(7)

# --- data -------------------------------------------------------------------------------------------------------------
regions, products, months = ["north", "south", "east", "west"], ["apples", "pears", "plums"], ["2024-01", "2024-02", "2024-03"]
sales = pd.DataFrame(
    [{"region": r, "product": p, "month": m, "amount": rng.randint(10, 99), "units": rng.randint(1, 9)} for r in regions for p in products for m in months]
)
sales.to_csv(FILES / "sales.csv", index=False)

days = list(range(1, 31))
temps = [round(18 + 10 * math.sin(d / 5) + rng.uniform(-1, 1), 1) for d in days]
ice = [round(20 + 4 * t + rng.uniform(-6, 6)) for t in temps]
weather = pd.DataFrame({"day": days, "temperature": temps, "ice_cream_sales": ice})
weather.to_csv(FILES / "weather.csv", index=False)

dates = pd.date_range("2024-01-01", periods=60, freq="D").strftime("%Y-%m-%d")
price, prices = 100.0, []
for _ in dates:
    price = round(price + rng.uniform(-3, 3.4), 2)
    prices.append(price)
stock = pd.DataFrame({"date": dates, "price": prices})
stock.to_csv(FILES / "stock.csv", index=False)

centres = [(30_000, 500), (60_000, 2_500), (95_000, 6_000)]
customers = pd.DataFrame(
    [{"id": i + 1, "age": rng.randint(20, 70), "income": round(c[0] + rng.gauss(0, 4_000)), "spend": round(c[1] + rng.gauss(0, 300))} for i, c in enumerate(centres[i % 3] for i in range(60))]
)
customers.to_excel(FILES / "customers.xlsx", index=False, sheet_name="customers")

items = [{"name": f"item-{chr(97 + i)}", "score": rng.randint(1, 500)} for i in range(12)]
(FILES / "items.json").write_text(json.dumps(items))

# --- requests, answers, reference solutions ---------------------------------------------------------------------------
tasks, answers, reference = [], {}, {}


def add(tid, level, question, files, answer, code, fetch=None, fail_first=None):
    tasks.append({"id": tid, "level": level, "question": question, "files": files, **({"fetch": fetch} if fetch else {})})
    answers[tid] = answer
    reference[tid] = {"code": code, **({"fetch": fetch} if fetch else {}), **({"failFirst": fail_first} if fail_first else {})}


def number(value, tol=0.01):
    return {"kind": "number", "value": float(value), "tolerance": tol}


READ_SALES = "import pandas as pd\ndf = pd.read_csv('sales.csv')\n"
READ_WEATHER = "import pandas as pd\ndf = pd.read_csv('weather.csv')\n"
READ_STOCK = "import pandas as pd\ndf = pd.read_csv('stock.csv')\ndf['ma7'] = df['price'].rolling(7).mean()\n"

# Level 1: one computation
add("a01", 1, "What is the total amount in sales.csv?", ["sales.csv"], number(sales.amount.sum()), READ_SALES + "print(df['amount'].sum())")
add("a02", 1, "What is the average number of units per row in sales.csv (2 decimals)?", ["sales.csv"], number(round(sales.units.mean(), 2)), READ_SALES + "print(round(df['units'].mean(), 2))")
add("a03", 1, "How many distinct products are in sales.csv?", ["sales.csv"], number(sales["product"].nunique()), READ_SALES + "print(df['product'].nunique())")
add("a04", 1, "What was the highest temperature in weather.csv?", ["weather.csv"], number(weather.temperature.max()), READ_WEATHER + "print(df['temperature'].max())")
add("a05", 1, "What is the correlation between temperature and ice_cream_sales in weather.csv (2 decimals)?", ["weather.csv"],
    number(round(weather.temperature.corr(weather.ice_cream_sales), 2)), READ_WEATHER + "print(round(df['temperature'].corr(df['ice_cream_sales']), 2))")
add("a06", 1, "What is the mean income in customers.xlsx (rounded to a whole number)?", ["customers.xlsx"], number(round(customers.income.mean()), 1),
    "import pandas as pd\ndf = pd.read_excel('customers.xlsx')\nprint(round(df['income'].mean()))")
top = sorted(items, key=lambda i: i["score"], reverse=True)[:5]
add("a07", 2, "Download the JSON list of items from {url} and give the names of the top 5 by score, highest first.", [], {"kind": "list", "values": [i["name"] for i in top]},
    "import json\nitems = json.load(open('downloads/items.json'))\nprint(', '.join(i['name'] for i in sorted(items, key=lambda i: i['score'], reverse=True)[:5]))", fetch="items.json")
add("a08", 2, "Download the JSON list of items from {url} and give the sum of their scores.", [], number(sum(i["score"] for i in items)),
    "import json\nitems = json.load(open('downloads/items.json'))\nprint(sum(i['score'] for i in items))", fetch="items.json")
add("a09", 2, "Download the items from {url}; how many have a score above 250?", [], number(sum(1 for i in items if i["score"] > 250)),
    "import json\nitems = json.load(open('downloads/items.json'))\nprint(sum(1 for i in items if i['score'] > 250))", fetch="items.json")


def values_of(series):
    """The values a chart or table must show, by label: the scorer checks them, whatever the columns are named."""
    return {str(k): float(v) for k, v in series.items()}


def chart_code(read, prep, out_id, kind, x, y, title, xl, yl, result):
    return read + prep + f"save_chart(chart, kind='{kind}', x='{x}', y={y!r}, title='{title}', x_label='{xl}', y_label='{yl}', id='{out_id}')\nprint({result})"


# Level 3: charts (first code fails on a misspelt column, then the fix succeeds)
by_region = sales.groupby("region")["amount"].sum()
add("a10", 3, "Make a bar chart of the total amount by region from sales.csv.", ["sales.csv"], {"kind": "chart", "type": "bar_chart", "x": "region", "y": ["amount"], "values": values_of(by_region)},
    chart_code(READ_SALES, "chart = df.groupby('region', as_index=False)['amount'].sum()\n", "by_region", "bar", "region", "amount", "Amount by region", "Region", "Amount", "chart.to_string()"),
    fail_first="amout")
add("a11", 3, "Plot temperature by day from weather.csv as a line chart.", ["weather.csv"], {"kind": "chart", "type": "line_chart", "x": "day", "y": ["temperature"]},
    chart_code(READ_WEATHER, "chart = df[['day', 'temperature']]\n", "temp_by_day", "line", "day", "temperature", "Temperature by day", "Day", "Temperature", "len(chart)"), fail_first="temprature")
add("a12", 3, "Plot ice_cream_sales against temperature from weather.csv.", ["weather.csv"], {"kind": "chart", "type": "scatter", "x": "temperature", "y": ["ice_cream_sales"]},
    chart_code(READ_WEATHER, "chart = df[['temperature', 'ice_cream_sales']]\n", "ice_vs_temp", "scatter", "temperature", "ice_cream_sales", "Ice cream vs temperature", "Temperature", "Ice cream sales", "len(chart)"))
units_by_product = sales.groupby("product")["units"].sum()
add("a13", 3, "Show the share of units by product in sales.csv as a pie chart.", ["sales.csv"],
    {"kind": "chart", "type": "pie_chart", "x": "product", "y": ["units"], "values": values_of(units_by_product), "proportional": True},
    chart_code(READ_SALES, "chart = df.groupby('product', as_index=False)['units'].sum()\n", "units_by_product", "pie", "product", "units", "Units by product", "Product", "Units", "chart.to_string()"))
by_month = sales.groupby("month", as_index=False)["amount"].sum()
add("a14", 3, "Make a table of the total amount per month from sales.csv.", ["sales.csv"], {"kind": "table", "columns": ["month", "amount"], "rows": len(by_month), "values": values_of(by_month.set_index("month")["amount"])},
    READ_SALES + "t = df.groupby('month', as_index=False)['amount'].sum()\nsave_table(t, id='amount_by_month', title='Amount by month')\nprint(t.to_string())")

# Level 4: multi-step moving averages
stock["ma7"] = stock.price.rolling(7).mean()
add("a15", 4, "In stock.csv, what is the 7-day moving average of price on the last date (2 decimals)?", ["stock.csv"], number(round(stock.ma7.iloc[-1], 2)),
    READ_STOCK + "print(round(df['ma7'].iloc[-1], 2))")
add("a16", 4, "In stock.csv, on which date is the 7-day moving average of price highest?", ["stock.csv"], {"kind": "text", "contains": stock.loc[stock.ma7.idxmax(), "date"]},
    READ_STOCK + "print(df.loc[df['ma7'].idxmax(), 'date'])")
add("a17", 4, "Plot price and its 7-day moving average from stock.csv on one line chart.", ["stock.csv"], {"kind": "chart", "type": "line_chart", "x": "date", "y": ["price", "ma7"]},
    chart_code(READ_STOCK, "chart = df[['date', 'price', 'ma7']].dropna()\n", "price_ma7", "line", "date", ["price", "ma7"], "Price and 7-day average", "Date", "Price", "len(chart)"))

# Level 5: models and clusters
X = customers[["income", "spend"]].to_numpy(dtype=float)
Xs = (X - X.mean(axis=0)) / X.std(axis=0)
scores = {k: silhouette_score(Xs, KMeans(n_clusters=k, n_init=10, random_state=0).fit_predict(Xs)) for k in range(2, 6)}
best_k = max(scores, key=scores.get)
add("a18", 5, "Cluster the customers in customers.xlsx on income and spend (standardised) with k-means for k = 2..5 and report the k with the best silhouette score.",
    ["customers.xlsx"], number(best_k, 0),
    "import pandas as pd\nfrom sklearn.cluster import KMeans\nfrom sklearn.metrics import silhouette_score\n"
    "df = pd.read_excel('customers.xlsx')\nX = df[['income', 'spend']].to_numpy(dtype=float)\nX = (X - X.mean(axis=0)) / X.std(axis=0)\n"
    "s = {k: silhouette_score(X, KMeans(n_clusters=k, n_init=10, random_state=0).fit_predict(X)) for k in range(2, 6)}\nprint(max(s, key=s.get))")
slope = float(np.polyfit(weather.temperature, weather.ice_cream_sales, 1)[0])
add("a19", 5, "Fit a linear regression of ice_cream_sales on temperature in weather.csv and report the slope (2 decimals).", ["weather.csv"], number(round(slope, 2)),
    READ_WEATHER + "import numpy as np\nprint(round(float(np.polyfit(df['temperature'], df['ice_cream_sales'], 1)[0]), 2))")
top_product = sales.groupby("product")["amount"].sum().idxmax()
add("a20", 5, "Which product has the highest total amount in sales.csv, and by how much does it lead the second?", ["sales.csv"], {"kind": "text", "contains": top_product},
    READ_SALES + "s = df.groupby('product')['amount'].sum().sort_values(ascending=False)\nprint(s.index[0], s.iloc[0] - s.iloc[1])")

# The issue-32 failure: a total per group answered with row counts, or with the right table retyped wrongly.
add("a21", 1, "What is the total amount per region in sales.csv?", ["sales.csv"],
    {"kind": "numbers", "values": [float(v) for v in by_region.values], "tolerance": 0.01},
    READ_SALES + "print(df.groupby('region')['amount'].sum().to_string())")

(HERE / "tasks.json").write_text(json.dumps({"name": "analysis", "version": "1", "tasks": tasks}, indent=1) + "\n")
(HERE / "answers.json").write_text(json.dumps(answers, indent=1) + "\n")
(HERE / "reference.json").write_text(json.dumps(reference, indent=1) + "\n")
print(f"{len(tasks)} tasks")
