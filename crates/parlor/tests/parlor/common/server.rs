//! A real `parlor serve` for the tests, and a small HTTP client for it.
//!
//! Terms:
//! - **server** ([`Server`]): the binary, started on a free loopback port,
//!   killed (`kill -9`, as a crash) when the test drops it.
//! - **signal** ([`Server::signal`]): `kill -SIGNAL` sent to the server by
//!   its process id, from any thread: `KILL` as a crash, `TERM` as the
//!   request to stop that a service manager or Ctrl-C sends.
//! - **request** ([`request`]): one HTTP/1.1 request on a fresh connection;
//!   the answer's status and JSON body. A server that is gone answers
//!   `None`.
//! - **event stream** ([`Events`]): a page's connection to a match's
//!   server-sent events, read change by change.

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A running `parlor serve`.
pub struct Server {
    /// `127.0.0.1:PORT`.
    pub addr: String,
    child: Child,
    /// What it has written to its standard error so far.
    errors: Arc<Mutex<String>>,
}

impl Server {
    /// Starts `parlor serve` with its store in `data` (and `extra`
    /// arguments, such as `--database URL`), on `addr` (port 0: any).
    pub fn start(data: &Path, addr: &str, extra: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_parlor"))
            .args(["serve", "--addr", addr, "--data-dir"])
            .arg(data)
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("parlor serve starts");
        let errors = Arc::new(Mutex::new(String::new()));
        let mut stderr = BufReader::new(child.stderr.take().expect("its stderr"));
        let kept = Arc::clone(&errors);
        std::thread::spawn(move || {
            let mut line = String::new();
            while stderr.read_line(&mut line).is_ok_and(|n| n > 0) {
                kept.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push_str(&line);
                line.clear();
            }
        });
        let mut out = BufReader::new(child.stdout.take().expect("its stdout"));
        let mut url = String::new();
        out.read_line(&mut url).expect("its URL");
        let addr = url
            .trim()
            .strip_prefix("http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("the first line is the URL, not {url:?}"))
            .to_string();
        // The rest of its output is read away, so that it never blocks.
        std::thread::spawn(move || {
            let mut sink = String::new();
            let _ = out.read_to_string(&mut sink);
        });
        Self {
            addr,
            child,
            errors,
        }
    }

    /// What it has written to its standard error so far (for a failing
    /// test's message).
    pub fn errors(&self) -> String {
        self.errors
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Kills it at once, as a crash would (`kill -9`).
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// A way to send it a signal from another thread, while this one
    /// goes on talking to it.
    pub fn signal(&self) -> Signal {
        Signal(self.child.id())
    }

    /// Waits for it to exit (after a signal) and says how; panics, with
    /// what it wrote to its standard error, if it is still running after
    /// `within`.
    pub fn exit_within(mut self, within: Duration) -> ExitStatus {
        let deadline = Instant::now() + within;
        loop {
            if let Some(status) = self.child.try_wait().expect("its status") {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "parlor serve still runs {within:?} after the signal: {}",
                self.errors()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// A server's process id, to signal it with (see [`Server::signal`]).
#[derive(Clone, Copy)]
pub struct Signal(u32);

impl Signal {
    /// Sends `kill -NAME` (`"KILL"`, `"TERM"`) to the server.
    pub fn send(self, name: &str) {
        let sent = Command::new("kill")
            .arg(format!("-{name}"))
            .arg(self.0.to_string())
            .status()
            .expect("kill runs");
        assert!(sent.success(), "kill -{name} {} failed", self.0);
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends one request; `None` when the server cannot be reached or the
/// connection breaks before a whole answer (it was killed).
pub fn request(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> Option<(u16, Value)> {
    let mut stream = TcpStream::connect(addr).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .ok()?;
    let payload = body.map(Value::to_string).unwrap_or_default();
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n{auth}Content-Length: {}\r\nConnection: close\r\n\r\n",
        payload.len()
    );
    // One write: head and body in two would wait for the first's
    // acknowledgement (Nagle's algorithm), some 40 ms on loopback.
    stream
        .write_all(format!("{head}{payload}").as_bytes())
        .ok()?;
    let mut reader = BufReader::new(stream);
    let (status, chunked, length) = read_head(&mut reader)?;
    let body = if chunked {
        let mut body = Vec::new();
        loop {
            let chunk = read_chunk(&mut reader)?;
            if chunk.is_empty() {
                break;
            }
            body.extend(chunk);
        }
        body
    } else if let Some(n) = length {
        let mut body = vec![0; n];
        reader.read_exact(&mut body).ok()?;
        body
    } else {
        let mut body = Vec::new();
        reader.read_to_end(&mut body).ok()?;
        body
    };
    let value = serde_json::from_slice(&body)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&body).into_owned()));
    Some((status, value))
}

/// Reads a response's status line and headers: the status, whether the
/// body is chunked, and its length.
fn read_head(reader: &mut impl BufRead) -> Option<(u16, bool, Option<usize>)> {
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let status = line.split_whitespace().nth(1)?.parse().ok()?;
    let mut chunked = false;
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            return Some((status, chunked, length));
        }
        if let Some((name, value)) = line.split_once(':') {
            match name.trim().to_ascii_lowercase().as_str() {
                "transfer-encoding" => chunked = value.to_ascii_lowercase().contains("chunked"),
                "content-length" => length = value.trim().parse().ok(),
                _ => {}
            }
        }
    }
}

/// One chunk of a chunked body (empty at the end).
fn read_chunk(reader: &mut impl BufRead) -> Option<Vec<u8>> {
    let mut size = String::new();
    if reader.read_line(&mut size).ok()? == 0 {
        return None;
    }
    let n = usize::from_str_radix(size.trim(), 16).ok()?;
    let mut chunk = vec![0; n + 2];
    reader.read_exact(&mut chunk).ok()?;
    chunk.truncate(n);
    Some(chunk)
}

/// A match's live events, as a page follows them.
pub struct Events {
    chunks: std::sync::mpsc::Receiver<String>,
    text: String,
}

impl Events {
    /// Opens `/api/matches/{id}/events` on `addr`.
    pub fn open(addr: &str, id: &str) -> Self {
        let mut stream = TcpStream::connect(addr).expect("the server accepts");
        write!(
            stream,
            "GET /api/matches/{id}/events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
        )
        .expect("the request sent");
        let mut reader = BufReader::new(stream);
        let (status, chunked, _) = read_head(&mut reader).expect("the event stream answers");
        assert_eq!(status, 200, "the event stream opens");
        assert!(chunked, "an event stream is chunked");
        // A thread reads whole chunks as they come; `next` waits for them.
        let (send, chunks) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            while let Some(chunk) = read_chunk(&mut reader) {
                if chunk.is_empty()
                    || send
                        .send(String::from_utf8_lossy(&chunk).into_owned())
                        .is_err()
                {
                    break;
                }
            }
        });
        Self {
            chunks,
            text: String::new(),
        }
    }

    /// The next change (its `{"played", "view"}`), waiting at most
    /// `within`; `None` when none came in time (or the stream ended).
    pub fn next(&mut self, within: Duration) -> Option<Value> {
        let deadline = Instant::now() + within;
        loop {
            if let Some(end) = self.text.find("\n\n") {
                let block: String = self.text.drain(..end + 2).collect();
                if let Some(data) = block.lines().find_map(|l| l.strip_prefix("data: ")) {
                    return serde_json::from_str(data).ok();
                }
                continue;
            }
            let left = deadline.checked_duration_since(Instant::now())?;
            match self.chunks.recv_timeout(left) {
                Ok(chunk) => self.text.push_str(&chunk),
                Err(_) => return None,
            }
        }
    }
}
