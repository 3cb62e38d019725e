//! One question, one answer: `parlor baffle solve --json` and the server's
//! `POST /api/baffle/solve` give the same JSON document for the same
//! evidence, exact, sampled and estimated alike (both the real binary).

use crate::common;

use common::ok;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

/// Kills the server when the test ends, pass or fail.
struct Running(std::process::Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `parlor serve` on a free loopback port; its address.
fn serve(data: &std::path::Path) -> (Running, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_parlor"))
        .args(["serve", "--addr", "127.0.0.1:0", "--data-dir"])
        .arg(data)
        .stdout(Stdio::piped())
        .spawn()
        .expect("parlor serve to start");
    let mut running = Running(child);
    let mut out = BufReader::new(running.0.stdout.take().expect("its stdout"));
    let mut url = String::new();
    out.read_line(&mut url).expect("its first line");
    let addr = url
        .trim()
        .strip_prefix("http://")
        .and_then(|rest| rest.strip_suffix('/'))
        .unwrap_or_else(|| panic!("the first line is the URL, not {url:?}"))
        .to_string();
    (running, addr)
}

/// POSTs `body` to `path`; the status line and the JSON body.
fn post(addr: &str, path: &str, body: &Value) -> (String, Value) {
    let payload = body.to_string();
    let mut stream = TcpStream::connect(addr).expect("the server to accept");
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{payload}",
        payload.len()
    )
    .expect("the request sent");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("an answer");
    let (head, body) = answer.split_once("\r\n\r\n").expect("headers and a body");
    let status = head.lines().next().unwrap_or_default().to_string();
    (status, serde_json::from_str(body).expect("a JSON body"))
}

#[test]
fn baffle_solve_json_is_the_api_answer() {
    let data = tempfile::tempdir().unwrap();
    let (_server, addr) = serve(data.path());
    let cases: Vec<(Vec<&str>, Value)> = vec![
        // Exact.
        (
            vec!["--shots", "7:22 5:12 1:24"],
            json!({"size": 10, "mirrors": 5, "shots": [[7, 22], [5, 12], [1, 24]]}),
        ),
        // Counted exactly, advice sampled; a found mirror and a wrong guess.
        (
            vec!["--shots", "5:12", "--found", "4,2,/", "--wrong", "0,0,\\"],
            json!({"size": 10, "mirrors": 5, "shots": [[5, 12]],
                   "found": [{"row": 4, "col": 2, "mirror": "/"}],
                   "not": [{"row": 0, "col": 0, "mirror": "\\"}]}),
        ),
        // Too many to count: estimated.
        (
            vec!["-n", "26", "-k", "40", "--shots", "0:61 30:82 60:3"],
            json!({"size": 26, "mirrors": 40, "shots": [[0, 61], [30, 82], [60, 3]]}),
        ),
    ];
    for (args, evidence) in cases {
        let mut full = vec!["baffle", "solve", "--json"];
        full.extend(&args);
        let cli: Value = serde_json::from_str(&ok(&full)).unwrap();
        let (status, api) = post(&addr, "/api/baffle/solve", &evidence);
        assert!(status.contains("200"), "{status}: {api}");
        assert_eq!(cli, api, "{args:?}");
    }
    // A contradiction, left and top only: the CLI's document names it, and
    // the API refuses the evidence with the same words.
    let cli: Value = serde_json::from_str(&ok(&[
        "baffle",
        "solve",
        "--json",
        "--sides",
        "left-top",
        "--shots",
        "7:22 7:23",
    ]))
    .unwrap();
    assert_eq!(cli["layouts"], "0", "{cli}");
    assert_eq!(cli["contradiction"]["kind"], "two_shots", "{cli}");
    let (status, api) = post(
        &addr,
        "/api/baffle/solve",
        &json!({"size": 10, "mirrors": 5, "sides": "left-top", "shots": [[7, 22], [7, 23]]}),
    );
    assert!(status.contains("400"), "{status}: {api}");
    assert_eq!(api["error"]["code"], "contradiction", "{api}");
    let said = api["error"]["message"].as_str().unwrap();
    assert!(said.starts_with("no box fits this evidence: "), "{said}");
    assert!(said.contains("7:22") && said.contains("7:23"), "{said}");
    // The estimated case says so, in the document and in its advice.
    let cli: Value = serde_json::from_str(&ok(&[
        "baffle",
        "solve",
        "--json",
        "-n",
        "26",
        "-k",
        "40",
        "--shots",
        "0:61 30:82 60:3",
    ]))
    .unwrap();
    assert_eq!(cli["method"]["kind"], "estimated", "{}", cli["method"]);
    assert_eq!(cli["layouts"], Value::Null);
}
