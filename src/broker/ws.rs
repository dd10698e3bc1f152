//! The live stream of `groupscope broker --ws-port N` (default: the Kafka
//! port + 1; 0 disables it), for the browser app's live view
//! (`?live=ws://127.0.0.1:9093`). It binds to the same address as the
//! broker (loopback unless `--bind` says otherwise); no authentication.
//!
//! # Contract (JSON text frames, server → browser only)
//!
//! 1. On connect, once:
//!    `{"kind":"hello","scenario":S,"now_ms":N}` — `S` is the protocol
//!    scenario recorded so far, the same JSON as the `--record` file
//!    (spec/scenario-format.md "Protocol scenarios": `seed`, `config`,
//!    `topics`, `requests`), `N` the broker's clock (ms since it started,
//!    the clock of every `at_ms`). The recording exists without `--record`.
//! 2. Then, in order:
//!    - `{"kind":"step","step":STEP}` for each new step of the recording,
//!      exactly as appended to `S.requests` (the next index): a classic
//!      group's requests, or a consumer group's `consumer_heartbeat`s
//!      (KIP-848, answered at once, so always with their `expect`). `STEP.expect`
//!      holds the live answer when it came at once; a parked JoinGroup or
//!      SyncGroup is answered later, see `expect`.
//!    - `{"kind":"expect","index":I,"expect":E}`: the answer to step `I`
//!      (parked until now) arrived; the record file has `E` as that step's
//!      `expect`.
//!    - `{"kind":"topics","topics":[{"name":"t","partitions":3}]}` when the
//!      topic list changes (flags, auto-create); `S.topics` at connect.
//!    - `{"kind":"clock","now_ms":N}` every 250 ms.
//!    - `{"kind":"log_end","offsets":{"t-0":42}}` when a partition's log
//!      end offset moved (Produce), partitions with records only.
//!
//! Steps carry `at_ms` from the same clock, so running `S.requests` (plus
//! the steps that follow) through the coordinator, as `groupscope run`
//! does, gives the live group's states. A browser that reads too slowly
//! (its queue of 4096 messages overflows, or one send takes over 5 s) is
//! disconnected and may reconnect (it gets a fresh `hello`). Whatever the
//! browser sends is ignored.

use super::Broker;
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use std::rc::Rc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::broadcast::error::RecvError;
use tokio_tungstenite::tungstenite::Message;

/// Accepts WebSocket clients for as long as the broker runs.
pub async fn accept(broker: Rc<Broker>, listener: TcpListener) {
    loop {
        match listener.accept().await {
            Ok((stream, peer)) => {
                let broker = broker.clone();
                tokio::task::spawn_local(async move {
                    if let Err(e) = client(broker, stream).await {
                        eprintln!("groupscope broker: live view {peer}: {e}");
                    }
                });
            }
            Err(e) => {
                eprintln!("groupscope broker: live view accept: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    }
}

async fn client(broker: Rc<Broker>, stream: TcpStream) -> Result<(), String> {
    let ws = tokio_tungstenite::accept_async(stream)
        .await
        .map_err(|e| format!("handshake: {e}"))?;
    let (mut tx, mut rx) = ws.split();
    // Subscribe and take the snapshot under the lock: messages are sent
    // under it too, so none is lost or doubled between the two.
    let (hello, mut messages) = {
        let state = broker.lock();
        let scenario = serde_json::to_value(state.recorder.scenario()).unwrap_or_default();
        let hello = json!({"kind": "hello", "scenario": scenario, "now_ms": state.now_ms()});
        (hello.to_string(), broker.ws.subscribe())
    };
    send(&mut tx, hello).await?;
    loop {
        tokio::select! {
            message = messages.recv() => match message {
                Ok(text) => send(&mut tx, text.to_string()).await?,
                Err(RecvError::Lagged(n)) => {
                    let _ = tx.send(Message::Close(None)).await;
                    return Err(format!("too slow ({n} messages behind): disconnected"));
                }
                Err(RecvError::Closed) => return Ok(()),
            },
            incoming = rx.next() => match incoming {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return Ok(()),
                Some(Ok(_)) => {}
            },
        }
    }
}

async fn send<S>(tx: &mut S, text: String) -> Result<(), String>
where
    S: futures_util::Sink<Message, Error = tokio_tungstenite::tungstenite::Error> + Unpin,
{
    match tokio::time::timeout(Duration::from_secs(5), tx.send(Message::text(text))).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err("a send took over 5 s: disconnected".into()),
    }
}
