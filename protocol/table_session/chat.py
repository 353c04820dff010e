"""Chat: lines said at the table, each speaker's allowance (a burst, then one a second), and the
last lines kept for whoever comes later."""

from __future__ import annotations

from dataclasses import replace

from protocol.errors import ErrorCode
from protocol.messages import Chat, Say
from protocol.table_session.core import Member, SessionCore
from protocol.table_session.effects import Drop


class ChatRoom(SessionCore):
    def _say(self, member: Member, say: Say) -> None:
        now = self._now
        s = self.settings
        member.chat_allowance = min(
            float(s.chat_burst),
            member.chat_allowance + (now - member.chat_checked) * s.chat_per_second,
        )
        member.chat_checked = now
        if member.chat_allowance < 1:
            if member.chat_refusals >= s.chat_abuse_limit:
                member.closed = True
                self._out.append(Drop(member.number, "flooded the chat"))
                return
            member.chat_refusals += 1
            self._refuse(member, ErrorCode.REFUSED, "you are sending chat too fast; slow down")
            return
        member.chat_allowance -= 1
        line = Chat(member.seat, member.name, say.text)
        self._chat.append(line)
        self._to_everyone(line)

    def _earlier_chat(self, member: Member) -> None:
        """What the table said before `member` came: a newcomer, or a player back from a dropped
        link, reads the conversation it joins (its client skips lines it already showed)."""
        for line in self._chat:
            self._send(member, replace(line, earlier=True))
