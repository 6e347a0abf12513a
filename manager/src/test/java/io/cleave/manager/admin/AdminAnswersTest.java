package io.cleave.manager.admin;

import io.cleave.proxy.server.InDoubtResolution;
import io.cleave.proxy.server.XaRecovery;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The admin API's answers as the CLI reads them back. */
class AdminAnswersTest {

    @Test
    void resolutionsAnswerWithTheirOwnStatus() {
        assertThat(AdminServer.httpStatus(InDoubtResolution.Outcome.SETTLED)).isEqualTo(200);
        assertThat(AdminServer.httpStatus(InDoubtResolution.Outcome.UNKNOWN_XID)).isEqualTo(404);
        assertThat(AdminServer.httpStatus(InDoubtResolution.Outcome.REFUSED)).isEqualTo(409);
        assertThat(AdminServer.httpStatus(InDoubtResolution.Outcome.FAILED)).isEqualTo(502);
    }

    @Test
    void theErrorMessageIsTakenFromItsJson() {
        assertThat(AdminClient.errorOf("{\"error\":\"the proxy is not running\"}")).isEqualTo("the proxy is not running");
        assertThat(AdminClient.errorOf("Internal Server Error")).isEqualTo("Internal Server Error");
        assertThat(AdminClient.errorOf("{\"other\":1}")).isEqualTo("{\"other\":1}");
    }

    @Test
    void branchesAndResolutionsSurviveTheirJson() throws Exception {
        var branches = List.of(new XaRecovery.InDoubtBranch(2, "cleave:1:a:b:c", 1, XaRecovery.Decision.ROLLBACK));
        String json = AdminServer.JSON.writeValueAsString(new RecoveryReport(3, branches));
        assertThat(json).isEqualTo("{\"settled\":3,\"inDoubt\":[{\"shard\":2,\"xid\":\"cleave:1:a:b:c\","
                + "\"coordinator\":1,\"decision\":\"ROLLBACK\"}]}");
        assertThat(AdminServer.JSON.readValue(json, RecoveryReport.class)).isEqualTo(new RecoveryReport(3, branches));
        var resolution = new InDoubtResolution("cleave:1:a:b:c", false, InDoubtResolution.Outcome.SETTLED, true,
                List.of(2), List.of(), null);
        assertThat(AdminServer.JSON.readValue(AdminServer.JSON.writeValueAsString(resolution), InDoubtResolution.class))
                .isEqualTo(resolution);
        assertThat(AdminServer.JSON.readValue("{\"xid\":\"cleave:1:a:b:c\"}", ResolveRequest.class))
                .isEqualTo(new ResolveRequest("cleave:1:a:b:c", false));
    }
}
