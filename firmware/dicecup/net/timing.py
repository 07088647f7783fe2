"""The radio's timings (ms) and bounds: about frames, so short. Waits on a person are
elsewhere (dicecup/settings.py) and long."""
from micropython import const

RETX_MS = const(40)        # master: resend what a present cup has not acknowledged
RESEND_MS = const(80)      # a cup: resend its input (action, commitment, reveal, roll) until seen
HEART_MS = const(150)      # master: heartbeat (peers judge it alive by any frame)
BEACON_MS = const(500)     # master: beacon for cups looking for a table
KEEPALIVE_MS = const(400)  # peer: acknowledgement even with nothing new (ten in AWAY_MS)
HELLO_MS = const(300)      # a member without the state: say hello again
JOIN_MS = const(300)       # a joining cup: ask again
LOST_MS = const(1000)      # no frame from the table this long: the link is lost (an event)
AWAY_MS = const(4000)      # master: a cup silent this long is away, a bot plays its seat
FAIL_MS = const(3000)      # peer: a master silent this long has failed; a master that has not
                           # heard a majority of the table this long stops leading
ELECTION_MS = const(1000)  # a candidate that has no majority after this long tries again
STAGGER_MS = const(300)    # cups stand for election one after the other, in member order
ATTEST_MS = const(500)     # a cup: say again which late commitments or reveals it never heard
SEED_WAIT_MS = const(5000) # a cup that heard every commitment (or reveal) gives up on a leader
                           # that still does not seed (settle) the round this long after
SNAP_MS = const(500)       # master: one snapshot per cup in this long at most
NEED_MS = const(80)        # a cup asks for missing versions at most this often
THINK_MS = const(250)      # a bot's "thinking" before it acts
HISTORY = const(24)        # ops kept for cups that missed some (a cup further behind takes a snapshot)
AHEAD = const(16)          # early ops a peer keeps, at most, beyond the next one it needs
SNAP_CHUNK = const(200)    # snapshot bytes per frame
RESENDS = const(3)         # master: ops resent per RETX_MS at most
ANSWER = const(4)          # ops sent back per NEED at most
IDLE_MS = const(100)       # the longest a cup's tick may wait
SESSION_MS = const(30000)  # master: a join session left unconfirmed this long fails (net/gate.py)

# The frame ceiling: a token bucket, RATE frames a second with BURST in hand, so no cup
# puts more than RATE + BURST frames on air in any one second however lossy the air.
# Resends (retransmissions, answers to NEED and HELLO, snapshots) leave RESERVE tokens
# for fresh frames (new ops, inputs, heartbeats, acknowledgements).
RATE = const(64)
BURST = const(28)
RESERVE = const(8)
