//! `parlor serve` as a person runs it: it prints its URL and answers there.

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

fn get(addr: &str, path: &str) -> String {
    let mut stream = TcpStream::connect(addr).expect("the server to accept");
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .expect("the request sent");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("an answer");
    answer
}

#[test]
fn serve_prints_its_url_and_serves_the_app() {
    let data = tempfile::tempdir().unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_parlor"))
        .args(["serve", "--addr", "127.0.0.1:0", "--data-dir"])
        .arg(data.path())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut running = Running(child);
    let mut out = BufReader::new(running.0.stdout.take().unwrap());
    let mut url = String::new();
    out.read_line(&mut url).unwrap();
    let addr = url
        .trim()
        .strip_prefix("http://")
        .and_then(|rest| rest.strip_suffix('/'))
        .unwrap_or_else(|| panic!("the first line is the URL, not {url:?}"))
        .to_string();
    let mut next = String::new();
    out.read_line(&mut next).unwrap();
    assert!(next.contains(&data.path().display().to_string()), "{next}");

    let home = get(&addr, "/");
    assert!(home.starts_with("HTTP/1.1 200"), "{home}");
    assert!(home.contains("Parlor"));
    let api = get(&addr, "/api/chutes/boards");
    assert!(api.starts_with("HTTP/1.1 200"), "{api}");
    assert!(api.contains("\"classic\""));
}

#[test]
fn serve_reports_an_address_it_cannot_use() {
    let output = Command::new(env!("CARGO_BIN_EXE_parlor"))
        .args(["serve", "--addr", "not-an-address"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("--addr"), "{err}");
}
