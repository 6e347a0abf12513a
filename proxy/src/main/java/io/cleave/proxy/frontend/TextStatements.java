package io.cleave.proxy.frontend;

import io.cleave.router.plan.Analysis;
import io.cleave.router.plan.Plan;
import io.netty.buffer.ByteBuf;

/**
 * COM_QUERY: the statement's text is lexed into its event loop's reused buffers and its plan
 * found in the router's cache (parsed and planned only for a shape never seen), then the plan
 * runs with the text's own literal values.
 */
final class TextStatements {

    private final Session session;
    private final PlanExecutor executor;

    TextStatements(Session session, PlanExecutor executor) {
        this.session = session;
        this.executor = executor;
    }

    void query(Command command) {
        ByteBuf payload = command.payload();
        int length = payload.readableBytes() - 1;
        byte[] sql = session.loop().sqlBuffer(length);
        payload.getBytes(payload.readerIndex() + 1, sql, 0, length);
        Analysis analysis = session.runtime().router().analyze(sql, 0, length, session.sqlMode(),
                session.loop().analysis());
        Plan plan = analysis.plan();
        if (plan instanceof Plan.MultiStatement multi && !session.multiStatements()) {
            // Multi-statements are off (capability or COM_SET_OPTION): a server reads one statement.
            command.refuse(1064, "42000", "You have an error in your SQL syntax; check the manual that corresponds to"
                    + " your server version for the right syntax to use near '"
                    + analysis.tokens().text(multi.secondStatement(), analysis.tokens().size() - 1) + "' at line 1");
            return;
        }
        command.planned(plan, analysis, session.literals(analysis), null, false);
        if (!command.effects().previousConnection()) {
            // Only a statement that reads them (SHOW WARNINGS) keeps the previous statement's warnings.
            session.connections().releaseWarningsConnection();
        }
        executor.run(command, () -> query(command));
    }
}
