# Times a Tycoon move's answer: a person against three default bots on the
# sample grid, a stream open on each match (as the capacity benchmark's
# players have); every person's move timed from request to answer.
#
#   parlor serve --addr 127.0.0.1:18411 --data-dir "$(mktemp -d)" &
#   python3 scripts/tycoon-answer-time.py http://127.0.0.1:18411 \
#       crates/tycoon/tests/data/sample.grid 4      # 4 matches
import json, sys, time, urllib.request, threading, statistics
base = sys.argv[1]
grid = open(sys.argv[2]).read()
games = int(sys.argv[3]) if len(sys.argv) > 3 else 6
def call(method, path, body=None, token=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method)
    req.add_header("content-type", "application/json")
    if token: req.add_header("authorization", "Bearer " + token)
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())
def follow(mid, stop):
    try:
        with urllib.request.urlopen(base + f"/api/matches/{mid}/events") as r:
            while not stop.is_set():
                if not r.readline(): break
    except Exception:
        pass
times, with_chances = [], 0
for g in range(games):
    made = call("POST", "/api/matches", {"game": "tycoon", "setup": {"text": grid},
                "seats": ["here", "normal", "normal", "normal"], "seed": 100 + g})
    mid, token = made["id"], made["token"]
    stop = threading.Event()
    threading.Thread(target=follow, args=(mid, stop), daemon=True).start()
    for _ in range(60):
        for _ in range(500):
            v = call("GET", f"/api/matches/{mid}", token=token)
            if v["status"] != "playing" or v["to_move"] == 1: break
            time.sleep(0.01)
        if v["status"] != "playing": break
        mv = v["page"]["moves"][0]["text"]
        t = time.perf_counter()
        a = call("POST", f"/api/matches/{mid}/moves?view=full", {"move": mv, "after": v["moves"]}, token)
        times.append((time.perf_counter() - t) * 1000)
        if a["view"]["view"].get("chances") is not None: with_chances += 1
    stop.set()
times.sort()
n = len(times)
print(f"{n} person moves: median {statistics.median(times):.2f} ms, mean {statistics.mean(times):.2f} ms, "
      f"p95 {times[int(0.95*(n-1))]:.2f} ms, slowest {times[-1]:.2f} ms; answers with chances: {with_chances}")
