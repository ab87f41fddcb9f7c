// What the chat pages share: the chats listed, the chat on screen and the answers running now.

// `turns`: the answers running now, by session: each chat answers on its own, and a message sent in one
// while another answers waits in the server's line.
export const state = { sessions: [], current: null, turns: new Map(), settings: null, searchTimer: null };

/// The answer running in the chat on screen, if any.
export const currentTurn = () => state.turns.get(state.current?.id);
