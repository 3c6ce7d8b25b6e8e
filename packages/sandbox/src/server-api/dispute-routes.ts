import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Outcome } from '../core/errors.ts';
import type { SandboxGateway } from '../core/gateway.ts';
import type { TextEvidenceParams } from '../core/disputes.ts';
import { PATH_ID } from '../core/ids.ts';
import { errorResponseXml } from './serialize.ts';
import { multipartBoundary, parseMultipart } from './multipart.ts';
import { disputeXml, documentUploadXml, evidenceXml } from './serialize-disputes.ts';
import type { XmlElement } from './xml.ts';
import { camelizeKeys, section, sendStatus, sendXml } from './wire.ts';

// dispute.find, accept, addTextEvidence, addFileEvidence (after documentUpload.create), removeEvidence, finalize
// (dispute.search is in search-routes.ts).

type DisputeRequest = FastifyRequest<{ Params: { merchantId: string; id: string; evidenceId?: string } }>;

function answer<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  outcome: Outcome<T> | null,
  write: (value: T) => readonly [string, XmlElement],
): FastifyReply {
  if (outcome === null) return sendStatus(reply, 404);
  if (!outcome.ok) return sendXml(request, reply, 422, errorResponseXml(outcome.errors, outcome.message, request.body));
  return sendXml(request, reply, 200, write(outcome.value));
}

export async function disputeRoutes(app: FastifyInstance, options: { gateway: SandboxGateway }): Promise<void> {
  const { gateway } = options;
  const known = (request: DisputeRequest) => PATH_ID.test(request.params.id);

  // Only documentUpload.create sends multipart (in this plugin's scope); a 4 MB file and its part headers fit.
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: 5 * 1024 * 1024 }, (request, body, done) => {
    const boundary = multipartBoundary(request.headers['content-type']);
    if (boundary === null) {
      done(Object.assign(new Error('multipart body without a boundary'), { statusCode: 400 }), undefined);
      return;
    }
    done(null, parseMultipart(body as Buffer, boundary));
  });

  app.post('/document_uploads', async (request, reply) => {
    const body = request.body as ReturnType<typeof parseMultipart> | undefined;
    const file = body?.files.find((part) => part.name === 'file');
    const kind = body?.fields['document_upload[kind]'];
    const outcome = gateway.createDocumentUpload({
      kind,
      file: file && { name: file.filename, contentType: file.contentType, size: file.content.length },
    });
    if (outcome.ok) return sendXml(request, reply, 201, ['document-upload', documentUploadXml(outcome.value)]);
    // The params echoed are the form fields: never the file's bytes.
    return sendXml(request, reply, 422, errorResponseXml(outcome.errors, outcome.message, { document_upload: { kind } }));
  });

  app.get('/disputes/:id', async (request: DisputeRequest, reply) => {
    const dispute = known(request) ? gateway.findDispute(request.params.id) : undefined;
    if (dispute === undefined) return sendStatus(reply, 404);
    return sendXml(request, reply, 200, ['dispute', disputeXml(dispute)]);
  });

  app.put('/disputes/:id/accept', async (request: DisputeRequest, reply) =>
    answer(request, reply, gateway.acceptDispute(request.params.id), (dispute) => ['dispute', disputeXml(dispute)]),
  );

  app.put('/disputes/:id/finalize', async (request: DisputeRequest, reply) =>
    answer(request, reply, gateway.finalizeDispute(request.params.id), (dispute) => ['dispute', disputeXml(dispute)]),
  );

  app.post('/disputes/:id/evidence', async (request: DisputeRequest, reply) => {
    const params = camelizeKeys(section(request.body, 'evidence')) as TextEvidenceParams & { documentUploadId?: unknown };
    return answer(request, reply, gateway.addDisputeEvidence(request.params.id, params), (evidence) => [
      'evidence',
      evidenceXml(evidence),
    ]);
  });

  app.delete('/disputes/:id/evidence/:evidenceId', async (request: DisputeRequest, reply) => {
    const outcome = gateway.removeDisputeEvidence(request.params.id, request.params.evidenceId ?? '');
    if (outcome?.ok === true && !outcome.value) return sendStatus(reply, 404);
    return answer(request, reply, outcome, () => ['success', { success: true }]);
  });
}
