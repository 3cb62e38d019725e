//! A small WebDriver client: just the commands the browser tests use, as
//! JSON over plain HTTP/1.1 to a local `chromedriver`.
//!
//! Terms:
//! - **driver**: the `chromedriver` process, listening on a local port.
//! - **session**: one browser window the driver controls.
//! - **element**: a reference to a node of the page, from a CSS selector.

use serde_json::{Value, json};
use std::cell::RefCell;

/// WebDriver's codes for keys that type no character.
pub mod keys {
    pub const ENTER: &str = "\u{E007}";
    pub const TAB: &str = "\u{E004}";
    pub const SPACE: &str = "\u{E00D}";
    pub const ESCAPE: &str = "\u{E00C}";
    pub const HOME: &str = "\u{E011}";
    pub const END: &str = "\u{E010}";
    pub const ARROW_LEFT: &str = "\u{E012}";
    pub const ARROW_UP: &str = "\u{E013}";
    pub const ARROW_RIGHT: &str = "\u{E014}";
    pub const ARROW_DOWN: &str = "\u{E015}";
    pub const DELETE: &str = "\u{E017}";
    pub const CONTROL: &str = "\u{E009}";
    /// Releases the modifier keys held.
    pub const NULL: &str = "\u{E000}";
}
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// One HTTP request to the driver; returns the status and the JSON body.
fn http(port: u16, method: &str, path: &str, body: Option<&Value>) -> Result<(u16, Value), String> {
    let mut stream =
        TcpStream::connect(("127.0.0.1", port)).map_err(|e| format!("connect to driver: {e}"))?;
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .map_err(|e| e.to_string())?;
    let payload = body.map(Value::to_string).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{payload}",
        payload.len()
    );
    stream
        .write_all(request.as_bytes())
        .map_err(|e| format!("send to driver: {e}"))?;
    let mut reader = BufReader::new(stream);
    let mut status_line = String::new();
    reader
        .read_line(&mut status_line)
        .map_err(|e| format!("read from driver: {e}"))?;
    let status: u16 = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("bad status line from driver: {status_line:?}"))?;
    let mut length: Option<usize> = None;
    let mut chunked = false;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).map_err(|e| e.to_string())?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            let name = name.trim().to_ascii_lowercase();
            if name == "content-length" {
                length = value.trim().parse().ok();
            } else if name == "transfer-encoding" && value.to_ascii_lowercase().contains("chunked")
            {
                chunked = true;
            }
        }
    }
    let mut bytes = Vec::new();
    if chunked {
        loop {
            let mut size = String::new();
            reader.read_line(&mut size).map_err(|e| e.to_string())?;
            let n = usize::from_str_radix(size.trim(), 16).map_err(|e| e.to_string())?;
            if n == 0 {
                break;
            }
            let mut chunk = vec![0; n + 2];
            reader.read_exact(&mut chunk).map_err(|e| e.to_string())?;
            bytes.extend_from_slice(&chunk[..n]);
        }
    } else if let Some(n) = length {
        bytes.resize(n, 0);
        reader.read_exact(&mut bytes).map_err(|e| e.to_string())?;
    } else {
        reader.read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    }
    let value = if bytes.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&bytes).map_err(|e| format!("driver sent bad JSON: {e}"))?
    };
    Ok((status, value))
}

/// Whether a driver answers on `port`.
pub fn driver_ready(port: u16) -> bool {
    matches!(http(port, "GET", "/status", None), Ok((200, v)) if v["value"]["ready"] == json!(true))
}

/// A command to the driver: method, path under the session, body.
type Command = (String, String, Option<Value>);

/// A browser window driven through WebDriver.
pub struct Session {
    port: u16,
    id: RefCell<String>,
    binary: String,
    args: Vec<String>,
    /// The commands sent before the first page loaded (the window's size,
    /// emulated media), to set a fresh window up the same way if the
    /// browser dies loading that page; `None` once a page has loaded.
    before_first_page: RefCell<Option<Vec<Command>>>,
}

/// Whether a driver's error says the browser itself is gone (its renderer
/// crashed or it closed), not that a command failed.
fn browser_gone(error: &str) -> bool {
    ["invalid session id", "disconnected", "tab crashed"]
        .iter()
        .any(|gone| error.contains(gone))
}

/// An element of the page.
#[derive(Clone, Debug)]
pub struct Element(String);

impl Session {
    /// Opens a window of the Chromium at `binary` with `args`.
    pub fn start(port: u16, binary: &str, args: &[String]) -> Result<Self, String> {
        let id = Self::open_window(port, binary, args)?;
        Ok(Self {
            port,
            id: RefCell::new(id),
            binary: binary.to_string(),
            args: args.to_vec(),
            before_first_page: RefCell::new(Some(Vec::new())),
        })
    }

    /// The driver's id for this window.
    pub fn session_id(&self) -> String {
        self.id.borrow().clone()
    }

    /// Asks the driver for a window; returns its session id.
    fn open_window(port: u16, binary: &str, args: &[String]) -> Result<String, String> {
        let caps = json!({
            "capabilities": {
                "alwaysMatch": {
                    "browserName": "chrome",
                    "goog:chromeOptions": { "binary": binary, "args": args }
                }
            }
        });
        let (status, value) = http(port, "POST", "/session", Some(&caps))?;
        let id = value["value"]["sessionId"]
            .as_str()
            .ok_or_else(|| format!("the driver would not start a browser ({status}): {value}"))?;
        Ok(id.to_string())
    }

    /// Replaces a window that died before its first page loaded with a
    /// fresh one (a profile of its own, beside the first) set up by the
    /// same commands, `setup`.
    fn reopen(&self, setup: &[Command]) {
        let args: Vec<String> = self
            .args
            .iter()
            .map(|arg| match arg.strip_prefix("--user-data-dir=") {
                Some(dir) => format!("--user-data-dir={dir}/again"),
                None => arg.clone(),
            })
            .collect();
        let id = Self::open_window(self.port, &self.binary, &args)
            .unwrap_or_else(|e| panic!("cannot open Chromium again: {e}"));
        let old = self.id.replace(id);
        let _ = http(self.port, "DELETE", &format!("/session/{old}"), None);
        for (method, path, body) in setup {
            self.command(method, path, body.clone());
        }
    }

    fn try_command(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        if let Some(setup) = self.before_first_page.borrow_mut().as_mut() {
            setup.push((method.to_string(), path.to_string(), body.clone()));
        }
        let full = format!("/session/{}{path}", self.id.borrow());
        match http(self.port, method, &full, body.as_ref()) {
            Ok((200, value)) => Ok(value["value"].clone()),
            Ok((status, value)) => Err(format!(
                "WebDriver {method} {path} failed ({status}): {value}"
            )),
            Err(e) => Err(format!("WebDriver {method} {path}: {e}")),
        }
    }

    fn command(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.try_command(method, path, body)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// Goes to `url` and waits for the page to load. A browser that dies
    /// loading its first page (a renderer crash, which a busy machine
    /// sometimes sees) is opened again once, saying so on stderr; one that
    /// dies later fails the test.
    pub fn goto(&self, url: &str) {
        self.goto_after(url, url);
    }

    /// [`Session::goto`], whose first try loads `first_try` instead: for
    /// the test of a window opened again.
    pub(crate) fn goto_after(&self, first_try: &str, url: &str) {
        let first = self.before_first_page.take();
        let result = self.try_command("POST", "/url", Some(json!({ "url": first_try })));
        match (result, first) {
            (Ok(_), _) => {}
            (Err(e), Some(setup)) if browser_gone(&e) => {
                eprintln!(
                    "the browser died loading its first page, {first_try}: {e}; opening it again"
                );
                self.reopen(&setup);
                self.command("POST", "/url", Some(json!({ "url": url })));
            }
            (Err(e), _) => panic!("{e}"),
        }
    }

    /// Asks the page to be drawn as for a person who prefers less motion
    /// (`prefers-reduced-motion: reduce`), or not: Chromium's own media
    /// emulation, through chromedriver's DevTools command. Holds for the
    /// pages this window loads next.
    pub fn reduce_motion(&self, reduce: bool) {
        self.command(
            "POST",
            "/goog/cdp/execute",
            Some(json!({
                "cmd": "Emulation.setEmulatedMedia",
                "params": {"features": [{
                    "name": "prefers-reduced-motion",
                    "value": if reduce { "reduce" } else { "no-preference" },
                }]},
            })),
        );
    }

    /// Sets the window's size in CSS pixels.
    pub fn set_size(&self, width: u32, height: u32) {
        self.command(
            "POST",
            "/window/rect",
            Some(json!({ "width": width, "height": height })),
        );
    }

    /// The elements that `css` selects now.
    pub fn find_all(&self, css: &str) -> Vec<Element> {
        let value = self.command(
            "POST",
            "/elements",
            Some(json!({ "using": "css selector", "value": css })),
        );
        value
            .as_array()
            .map(|items| {
                items
                    .iter()
                    // An element reference is an object with one key.
                    .filter_map(|v| v.as_object()?.values().next()?.as_str())
                    .map(|s| Element(s.to_string()))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The first element that `css` selects, waiting for it to appear.
    pub fn find(&self, css: &str) -> Element {
        self.wait_for(&format!("an element {css}"), || {
            self.find_all(css).into_iter().next()
        })
    }

    /// Clicks `element`.
    pub fn click(&self, element: &Element) {
        self.command(
            "POST",
            &format!("/element/{}/click", element.0),
            Some(json!({})),
        );
    }

    /// Clicks the first element `css` selects (finding it again if the page
    /// redraws it in between).
    pub fn click_css(&self, css: &str) {
        self.wait_for(&format!("a click on {css}"), || {
            let element = self.find(css);
            let path = format!("/element/{}/click", element.0);
            match self.try_command("POST", &path, Some(json!({}))) {
                Ok(_) => Some(()),
                Err(e) if e.contains("stale element") => None,
                Err(e) => panic!("{e}"),
            }
        });
    }

    /// Types `text` into `element` (for a file input: the file's path).
    pub fn send_keys(&self, element: &Element, text: &str) {
        self.command(
            "POST",
            &format!("/element/{}/value", element.0),
            Some(json!({ "text": text })),
        );
    }

    /// The visible text of `element`.
    pub fn text(&self, element: &Element) -> String {
        self.command("GET", &format!("/element/{}/text", element.0), None)
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// The visible text of the first element `css` selects, waiting for it
    /// to appear (read in one step, so a redraw cannot get in between).
    pub fn text_css(&self, css: &str) -> String {
        self.wait_for(&format!("an element {css}"), || self.text_now(css))
    }

    /// An attribute of the first element `css` selects, read in one step
    /// (`None` when there is no such element or attribute).
    pub fn attr_css(&self, css: &str, name: &str) -> Option<String> {
        self.script(
            "const e = document.querySelector(arguments[0]); \
             return e ? e.getAttribute(arguments[1]) : null;",
            vec![json!(css), json!(name)],
        )
        .as_str()
        .map(str::to_string)
    }

    /// The visible text of the first element `css` selects, if any now.
    pub(crate) fn text_now(&self, css: &str) -> Option<String> {
        self.script(
            "const e = document.querySelector(arguments[0]); return e ? e.innerText : null;",
            vec![json!(css)],
        )
        .as_str()
        .map(str::to_string)
    }

    /// An attribute of `element`, if it has it.
    pub fn attr(&self, element: &Element, name: &str) -> Option<String> {
        self.command(
            "GET",
            &format!("/element/{}/attribute/{name}", element.0),
            None,
        )
        .as_str()
        .map(str::to_string)
    }

    /// Runs JavaScript in the page and returns its result. `arguments` are
    /// available to the script as `arguments[0]`, ….
    pub fn script(&self, script: &str, arguments: Vec<Value>) -> Value {
        self.command(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": arguments })),
        )
    }

    /// Runs asynchronous JavaScript in the page: the script calls its last
    /// argument (`arguments[arguments.length - 1]`) with its result.
    pub fn script_async(&self, script: &str, arguments: Vec<Value>) -> Value {
        self.command(
            "POST",
            "/execute/async",
            Some(json!({ "script": script, "args": arguments })),
        )
    }

    /// Presses keys as a person would, on whatever has the focus: `keys`
    /// is text, with WebDriver's codes for special keys (`\u{E004}` Tab,
    /// `\u{E007}` Enter, `\u{E00D}` Space, `\u{E012}`–`\u{E015}` the
    /// arrows).
    pub fn press(&self, keys: &str) {
        let mut actions = Vec::new();
        for key in keys.chars() {
            actions.push(json!({ "type": "keyDown", "value": key.to_string() }));
            actions.push(json!({ "type": "keyUp", "value": key.to_string() }));
        }
        self.command(
            "POST",
            "/actions",
            Some(json!({ "actions": [{ "type": "key", "id": "keyboard", "actions": actions }] })),
        );
        self.command("DELETE", "/actions", None);
    }

    /// Double-clicks `element` (two clicks in one gesture, as a person's
    /// double click).
    pub fn double_click(&self, element: &Element) {
        let origin = json!({ "element-6066-11e4-a52e-4f735466cecf": element.0 });
        let click = [
            json!({ "type": "pointerDown", "button": 0 }),
            json!({ "type": "pointerUp", "button": 0 }),
        ];
        let mut actions =
            vec![json!({ "type": "pointerMove", "duration": 0, "origin": origin, "x": 0, "y": 0 })];
        actions.extend(click.iter().cloned());
        actions.extend(click.iter().cloned());
        self.command(
            "POST",
            "/actions",
            Some(json!({ "actions": [{
                "type": "pointer",
                "id": "mouse",
                "parameters": { "pointerType": "mouse" },
                "actions": actions
            }]})),
        );
        self.command("DELETE", "/actions", None);
    }

    /// Chooses the option with `value` in the `<select>` `css` selects, as
    /// a person would (the page hears a change event).
    pub fn select(&self, css: &str, value: &str) {
        self.find(css);
        self.script(
            "const s = document.querySelector(arguments[0]); s.value = arguments[1]; \
             s.dispatchEvent(new Event('change', {bubbles: true}));",
            vec![json!(css), json!(value)],
        );
    }

    /// Replaces the text of the input `css` selects.
    pub fn fill(&self, css: &str, text: &str) {
        self.find(css);
        self.script(
            "const i = document.querySelector(arguments[0]); i.value = arguments[1]; \
             i.dispatchEvent(new Event('input', {bubbles: true}));",
            vec![json!(css), json!(text)],
        );
    }

    /// Moves the mouse to the window's top-left corner, so that nothing on
    /// the page shows a hover.
    pub fn pointer_away(&self) {
        self.command(
            "POST",
            "/actions",
            Some(json!({ "actions": [{
                "type": "pointer",
                "id": "mouse",
                "parameters": { "pointerType": "mouse" },
                "actions": [{ "type": "pointerMove", "duration": 0, "x": 0, "y": 0, "origin": "viewport" }]
            }]})),
        );
    }

    /// A PNG of the window.
    pub fn screenshot(&self) -> Vec<u8> {
        let encoded = self.command("GET", "/screenshot", None);
        decode_base64(encoded.as_str().unwrap_or_default())
    }

    /// Waits (up to 90 seconds: a loaded CI machine runs a debug-build server
    /// slowly; a passing wait returns as soon as the condition holds) until
    /// `check` gives a value.
    pub fn wait_for<T>(&self, what: &str, mut check: impl FnMut() -> Option<T>) -> T {
        let deadline = Instant::now() + Duration::from_secs(90);
        loop {
            if let Some(value) = check() {
                return value;
            }
            if Instant::now() > deadline {
                panic!("gave up waiting for {what}; {}", self.page_report());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// What a failed wait reports of the page: its address, the alerts it
    /// shows, and its text with each run of number-only lines (a board's
    /// squares) cut to its ends, so that a long board leaves the rest
    /// readable.
    pub fn page_report(&self) -> String {
        let state = self.script(
            "return [location.pathname + location.hash, \
               [...document.querySelectorAll('[role=alert], .error')] \
                 .map((e) => (e.id ? '#' + e.id + ': ' : '') + e.innerText.trim()) \
                 .filter((t) => !t.endsWith(': ') && t !== ''), \
               document.body.innerText];",
            vec![],
        );
        let at = state[0].as_str().unwrap_or("?");
        let alerts: Vec<&str> = state[1]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let text = compact_numbers(state[2].as_str().unwrap_or(""));
        format!(
            "the page at {at} shows {} alert(s){}; its text:\n{text}",
            alerts.len(),
            alerts
                .iter()
                .map(|a| format!("\n  {a}"))
                .collect::<String>()
        )
    }

    /// Waits until the page's address is a match of `game`'s
    /// (`/GAME/m/ID`), with an id other than `not`; returns the id.
    pub fn wait_for_match_address(&self, game: &str, not: Option<&str>) -> String {
        let prefix = format!("/{game}/m/");
        self.wait_for(&format!("the address of a {game} match"), || {
            let path = self.script("return location.pathname;", vec![]);
            path.as_str()
                .and_then(|p| p.strip_prefix(prefix.as_str()))
                .filter(|id| Some(*id) != not)
                .map(str::to_string)
        })
    }

    /// Waits until the first element `css` selects has text containing
    /// `wanted`; returns its text.
    pub fn wait_for_text(&self, css: &str, wanted: &str) -> String {
        self.wait_for(&format!("{css} to say {wanted:?}"), || {
            let text = self.text_now(css)?;
            text.contains(wanted).then_some(text)
        })
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = http(
            self.port,
            "DELETE",
            &format!("/session/{}", self.id.borrow()),
            None,
        );
    }
}

/// Standard base64 (with padding) to bytes.
fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| -> Option<u32> {
        match c {
            b'A'..=b'Z' => Some(u32::from(c - b'A')),
            b'a'..=b'z' => Some(u32::from(c - b'a') + 26),
            b'0'..=b'9' => Some(u32::from(c - b'0') + 52),
            b'+' => Some(62),
            b'/' => Some(63),
            _ => None,
        }
    };
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for v in text.bytes().filter_map(value) {
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}

#[test]
fn base64_decodes() {
    assert_eq!(decode_base64("aGVsbG8="), b"hello");
    assert_eq!(decode_base64("aGk="), b"hi");
    assert_eq!(decode_base64("YWJj"), b"abc");
}

/// `text` with each run of more than three lines holding only a number cut
/// to its first and last: "1 … 3000 (3000 lines)".
fn compact_numbers(text: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut run: Vec<&str> = Vec::new();
    let flush = |run: &mut Vec<&str>, out: &mut Vec<String>| {
        if run.len() > 3 {
            out.push(format!(
                "{} … {} ({} lines)",
                run[0],
                run[run.len() - 1],
                run.len()
            ));
        } else {
            out.extend(run.iter().map(|l| (*l).to_string()));
        }
        run.clear();
    };
    for line in text.lines() {
        let t = line.trim();
        if !t.is_empty() && t.chars().all(|c| c.is_ascii_digit()) {
            run.push(t);
        } else {
            flush(&mut run, &mut out);
            out.push(line.to_string());
        }
    }
    flush(&mut run, &mut out);
    out.join("\n")
}

#[test]
fn a_failed_waits_report_cuts_a_boards_numbers() {
    let text = "Board\n1\n2\n3\n4\n5\nStart the game\n7\n8";
    assert_eq!(
        compact_numbers(text),
        "Board\n1 … 5 (5 lines)\nStart the game\n7\n8"
    );
}
