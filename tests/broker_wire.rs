//! `groupscope broker` over a raw socket (issue 14): frames a client
//! should never send close only their own connection, and the broker
//! keeps answering. The real-client tests are in tests/broker/ (Python,
//! stage `broker`); this one needs nothing but the binary.
#![cfg(unix)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct Broker {
    child: Child,
    port: u16,
}

impl Drop for Broker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start() -> Broker {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(env!("CARGO_BIN_EXE_groupscope"))
        .args(["broker", "--port", &port.to_string(), "--ws-port", "0"])
        .args(["--topic", "t:2"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the broker did not start"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    Broker { child, port }
}

/// Sends `bytes`; what comes back before the broker closes (or 5 s pass).
fn exchange(port: u16, bytes: &[u8]) -> Vec<u8> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let _ = s.write_all(bytes);
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => return out,
            Ok(n) => {
                out.extend_from_slice(&buf[..n]);
                if out.len() >= 4 {
                    let size = i32::from_be_bytes([out[0], out[1], out[2], out[3]]) as usize;
                    if out.len() >= 4 + size {
                        return out;
                    }
                }
            }
        }
    }
}

/// A request frame: size, api key, version, correlation id 7, client id "t", body.
fn frame(api: i16, version: i16, flexible_header: bool, body: &[u8]) -> Vec<u8> {
    let mut f = Vec::new();
    f.extend_from_slice(&api.to_be_bytes());
    f.extend_from_slice(&version.to_be_bytes());
    f.extend_from_slice(&7i32.to_be_bytes());
    f.extend_from_slice(&1i16.to_be_bytes());
    f.push(b't');
    if flexible_header {
        f.push(0);
    }
    f.extend_from_slice(body);
    let mut out = (f.len() as i32).to_be_bytes().to_vec();
    out.extend(f);
    out
}

#[test]
fn bad_frames_close_their_connection_and_the_broker_keeps_answering() {
    let broker = start();
    let mut huge_count = i32::MAX.to_be_bytes().to_vec();
    huge_count.extend_from_slice(&[0, 1, b'a']);
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("oversize", (200 * 1024 * 1024i32).to_be_bytes().to_vec()),
        ("negative size", (-1i32).to_be_bytes().to_vec()),
        ("unknown API", frame(999, 0, false, &[])),
        ("unsupported version", frame(3, 99, false, &[])),
        ("truncated JoinGroup", frame(11, 5, false, &[0, 5, b'a'])),
        ("huge array count", frame(3, 1, false, &huge_count)),
        (
            "huge compact array count",
            frame(3, 9, true, &[0xff, 0xff, 0xff, 0xff, 0x0f]),
        ),
    ];
    for (name, bytes) in cases {
        assert_eq!(exchange(broker.port, &bytes), Vec::<u8>::new(), "{name}");
    }
    // ApiVersions v3: our ranges, header v0 (correlation id, then the body).
    let body = [2, b'p', 2, b'1', 0]; // client software name, version, tags
    let answer = exchange(broker.port, &frame(18, 3, true, &body));
    assert!(answer.len() > 10, "ApiVersions answered");
    assert_eq!(&answer[4..8], &7i32.to_be_bytes());
    assert_eq!(&answer[8..10], &0i16.to_be_bytes(), "error NONE");
    // ApiVersions above ours: UNSUPPORTED_VERSION, the ApiVersions range only.
    let answer = exchange(broker.port, &frame(18, 99, true, &[]));
    assert_eq!(&answer[8..10], &35i16.to_be_bytes());
    assert_eq!(&answer[10..14], &1i32.to_be_bytes());
    assert_eq!(&answer[14..16], &18i16.to_be_bytes());
}
