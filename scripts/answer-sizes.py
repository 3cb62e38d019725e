# What a move's answer weighs, as written and as a browser is sent it
# (gzip): Chutes and Tycoon with four seats at one screen (every seat's
# answers offered here in turn), each person named with the longest name
# allowed, moves chosen at random from those offered; median, 90th
# percentile and largest, and how many reach 1 KB. Then a Baffle answer,
# which carries the asker's whole box, as the box fills: every hole shot
# once on the default box and on the biggest (alone, and four at one
# screen), and the end, every mirror shown, once all give up. Last, races
# as people play them: two or four racers at one screen, each shooting
# holes of their own in an order of their own (a share of the box's holes
# drawn at random), then giving up; the largest answer in play and the end.
#
#   parlor serve --addr 127.0.0.1:18412 --data-dir "$(mktemp -d)" \
#       --rate-limit 0 --matches-per-client 0 &
#   python3 scripts/answer-sizes.py http://127.0.0.1:18412 6     # 6 games a game
import gzip, json, random, sys, urllib.request

base = sys.argv[1]
games = int(sys.argv[2]) if len(sys.argv) > 2 else 6
names = ["Alexandria Montgomery Xy", "Bartholomew Fitzgerald X",
         "Cassiopeia Wolfington Xy", "Dimitrios Papadopoulos X"]
seats = [{"plan": "here", "name": n} for n in names]


def call(method, path, body=None, token=None):
    """The answer's status, its JSON, and the bytes its body took as sent."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method)
    req.add_header("content-type", "application/json")
    req.add_header("accept-encoding", "gzip")
    if token:
        req.add_header("authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(req) as r:
            sent = r.read()
            body = gzip.decompress(sent) if r.headers.get("content-encoding") == "gzip" else sent
            return r.status, json.loads(body), len(sent)
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read()), 0


def choose(game, view, rng):
    if game == "tycoon":
        return rng.choice(view["page"]["moves"])["text"]
    return "roll"


setups = {"chutes": {}, "tycoon": {"sample": True}}
for game, setup in setups.items():
    written, sent = [], []
    for seed in range(1, games + 1):
        _, made, _ = call("POST", "/api/matches", {"game": game, "setup": setup, "seats": seats, "seed": seed})
        mid, token = made["id"], made["token"]
        rng = random.Random(seed)
        view = made["view"]
        for _ in range(400):
            if view["status"] != "playing":
                break
            status, answer, size = call("POST", f"/api/matches/{mid}/moves",
                                        {"move": choose(game, view, rng), "after": view["moves"]}, token)
            if status == 200:
                written.append(len(json.dumps(answer, separators=(",", ":"), ensure_ascii=False).encode()))
                sent.append(size)
            view = call("GET", f"/api/matches/{mid}", token=token)[1]
    for label, sizes in (("as written", written), ("as sent", sent)):
        sizes.sort()
        n = len(sizes)
        print(f"{game:7} {label:10} {n:5} answers: median {sizes[n // 2]:5} B, p90 {sizes[int(0.9 * (n - 1))]:5} B, "
              f"largest {sizes[-1]:5} B, {sum(s >= 1024 for s in sizes)} of 1 KB or more")

for size, mirrors, racers in ((10, 5, 1), (26, 40, 1), (26, 126, 1), (26, 300, 4)):
    _, made, _ = call("POST", "/api/matches", {"game": "baffle", "setup": {"size": size, "mirrors": mirrors},
                                                "seats": seats[:racers], "seed": 3})
    mid, token, view = made["id"], made["token"], made["view"]
    sent = []
    # Each racer in turn (four at one screen), every hole once, then all give up.
    for move in [f"shoot {hole}" for hole in range(4 * size) for _ in range(racers)] + ["quit"] * racers:
        status, answer, size_sent = call("POST", f"/api/matches/{mid}/moves",
                                         {"move": move, "after": view["moves"]}, token)
        sent.append(size_sent)
        view = call("GET", f"/api/matches/{mid}", token=token)[1]
    shots = [sent[n * racers - 1] for n in range(1, 4 * size + 1)]
    at = ", ".join(f"{n} shots {shots[n - 1]} B" for n in sorted({10, 20, 40, 4 * size}))
    first = next((i + 1 for i, s in enumerate(shots) if s >= 1024), None)
    print(f"baffle  {size}x{size}, {mirrors} mirrors, {racers} at one screen, as sent: {at}; "
          f"1 KB or more from shot {first}; the end (given up) {sent[-1]} B")

for size, mirrors in ((10, 5), (16, 20), (20, 30), (26, 40)):
    for racers in (2, 4):
        largest, ends = 0, []
        for seed in range(1, games + 1):
            _, made, _ = call("POST", "/api/matches", {"game": "baffle", "setup": {"size": size, "mirrors": mirrors},
                                                        "seats": seats[:racers], "seed": seed})
            mid, token, view = made["id"], made["token"], made["view"]
            rng = random.Random(seed)
            holes = []
            for _ in range(racers):
                own = list(range(4 * size))
                rng.shuffle(own)
                holes.append(own[:rng.randint(size, 4 * size)])
            size_sent = 0
            while view["status"] == "playing":
                own = holes[view["to_move"] - 1]
                move = f"shoot {own.pop()}" if own else "quit"
                status, answer, size_sent = call("POST", f"/api/matches/{mid}/moves",
                                                 {"move": move, "after": view["moves"]}, token)
                if status != 200:
                    sys.exit(f"baffle race: {move} refused: {answer}")
                view = call("GET", f"/api/matches/{mid}", token=token)[1]
                if view["status"] == "playing":
                    largest = max(largest, size_sent)
            ends.append(size_sent)
        ends.sort()
        print(f"baffle  race {size}x{size}, {mirrors} mirrors, {racers} racers, their own holes, as sent: "
              f"largest in play {largest} B; the end (given up) median {ends[len(ends) // 2]} B, "
              f"largest {ends[-1]} B, {sum(e >= 1024 for e in ends)} of {len(ends)} of 1 KB or more")
