"""The wire between the server and its clients: the messages' shapes (protocol), the error codes, the
views sent out, the guard every socket event passes before its handler, and the Socket.IO transport."""
