//! The server over real TCP on loopback: connections are limited and timed
//! out, and a stop lets requests being answered finish.

use crate::support;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;
use support::serve_over_tcp;

fn connect(addr: SocketAddr) -> TcpStream {
    let stream = TcpStream::connect(addr).expect("a connection");
    // A bound on every wait, so that a server that never answers fails the
    // test instead of hanging it.
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .expect("a read timeout");
    stream
}

/// Reads until the server closes; returns what it sent. Fails the test
/// when the server keeps the connection open past the 20 s bound.
fn read_all(stream: &mut TcpStream) -> String {
    let mut answer = Vec::new();
    match stream.read_to_end(&mut answer) {
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {}
        Err(e) => panic!("the server kept the connection open: {e}"),
    }
    String::from_utf8_lossy(&answer).into_owned()
}

fn get(addr: SocketAddr, path: &str) -> String {
    let mut stream = connect(addr);
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .expect("the request sent");
    read_all(&mut stream)
}

#[test]
fn half_sent_headers_and_silent_connections_are_closed() {
    let (addr, _stop, _thread, _dir) =
        serve_over_tcp(|c| c.header_timeout = Duration::from_millis(300));
    let mut silent = connect(addr);
    let mut half = connect(addr);
    half.write_all(b"GET / HTTP/1.1\r\nHo").unwrap();
    // Both are closed by the server (a read returns the end, not the
    // 20 s bound); a 408 may come first.
    for stream in [&mut silent, &mut half] {
        let answer = read_all(stream);
        assert!(
            answer.is_empty() || answer.starts_with("HTTP/1.1 408"),
            "{answer}"
        );
    }
    // After an answer, an idle keep-alive connection is closed too.
    let mut kept = connect(addr);
    write!(
        kept,
        "GET /api/chutes/boards HTTP/1.1\r\nHost: {addr}\r\n\r\n"
    )
    .unwrap();
    let answer = read_all(&mut kept);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

#[test]
fn a_body_that_does_not_arrive_in_time_is_answered_408() {
    let (addr, _stop, _thread, _dir) =
        serve_over_tcp(|c| c.body_timeout = Duration::from_millis(300));
    let mut slow = connect(addr);
    write!(
        slow,
        "POST /api/matches HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: 100\r\n\r\n{{\"ga"
    )
    .unwrap();
    let answer = read_all(&mut slow);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("did not arrive within 0.3 s"), "{answer}");
}

#[test]
fn a_body_slower_than_the_floor_is_answered_408_before_the_body_timeout() {
    // The body timeout is far; the floor (after a 2 s grace) is not.
    let (addr, _stop, _thread, _dir) = serve_over_tcp(|c| c.body_timeout = Duration::from_secs(60));
    let mut slow = connect(addr);
    write!(
        slow,
        "POST /api/matches HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: 100000\r\n\r\n{{"
    )
    .unwrap();
    let answer = read_all(&mut slow);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(
        answer.contains("slower than 1024 bytes a second"),
        "{answer}"
    );
}

#[test]
fn when_the_server_is_full_a_slow_body_makes_room() {
    let (addr, _stop, _thread, _dir) = serve_over_tcp(|c| {
        c.max_connections = 3;
        c.body_timeout = Duration::from_secs(60);
    });
    // Three slow bodies take every connection.
    let mut slow: Vec<TcpStream> = (0..3)
        .map(|_| {
            let mut stream = connect(addr);
            write!(
                stream,
                "POST /api/matches HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
                 Content-Length: 100000\r\n\r\n{{"
            )
            .unwrap();
            stream
        })
        .collect();
    // Once they are no longer fresh, a newcomer is answered: one of them
    // was closed to make room.
    std::thread::sleep(Duration::from_millis(1200));
    let mut newcomer = connect(addr);
    write!(
        newcomer,
        "GET /api/games HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let answer = read_all(&mut newcomer);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    drop(slow.pop());
}

#[test]
fn beyond_the_connection_limit_the_oldest_idle_connection_makes_room() {
    let (addr, _stop, _thread, _dir) = serve_over_tcp(|c| c.max_connections = 4);
    let mut idle: Vec<TcpStream> = (0..4).map(|_| connect(addr)).collect();
    // Give the server time to take them all (a bounded wait for it to
    // count them: each answers a request first).
    for stream in &mut idle {
        write!(
            stream,
            "GET /api/chutes/boards HTTP/1.1\r\nHost: {addr}\r\n\r\n"
        )
        .unwrap();
        let mut head = [0u8; 12];
        stream.read_exact(&mut head).unwrap();
        assert_eq!(&head, b"HTTP/1.1 200");
    }
    // A fifth is answered; the first, now idle and the oldest, was closed.
    let answer = get(addr, "/api/chutes/boards");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let rest = read_all(&mut idle[0]);
    assert!(
        rest.contains("classic"),
        "the rest of its answer, then the end: {rest}"
    );
}

#[test]
fn a_stop_lets_requests_being_answered_finish() {
    let (addr, stop, thread, _dir) = serve_over_tcp(|_| {});
    // The server opens its store once listening: wait until it answers.
    let ready = get(addr, "/api/chutes/boards");
    assert!(ready.starts_with("HTTP/1.1 200"), "{ready}");
    let mut inflight = connect(addr);
    let body = r#"{"game": "baffle", "setup": {"fixed": true}}"#;
    write!(
        inflight,
        "POST /api/matches HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{}",
        body.len(),
        &body[..5]
    )
    .unwrap();
    let idle = connect(addr);
    // Let the server read the headers, then tell it to stop.
    std::thread::sleep(Duration::from_millis(200));
    stop.send(()).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    inflight.write_all(&body.as_bytes()[5..]).unwrap();
    let answer = read_all(&mut inflight);
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    assert!(answer.contains("\"id\""), "{answer}");
    thread.join().expect("the server returns after the stop");
    drop(idle);
    assert!(
        TcpStream::connect(addr).is_err(),
        "nothing listens any more"
    );
}
