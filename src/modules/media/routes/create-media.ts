import multipart from '@fastify/multipart';
import type { FastifyError, FastifyReply, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { Type, type Static } from 'typebox';
import { callerOf } from '../../../http/auth.ts';
import { errors, handleError } from '../../../http/errors.ts';
import { errorResponses } from '../../../http/schemas.ts';
import type { Api } from '../../../http/types.ts';
import { validatorCompiler } from '../../../http/validation.ts';
import { isMediaType } from '../detect.ts';
import { discardUpload } from '../ingest.ts';
import { drainRest } from '../drain.ts';
import { MediaTypeSchema, presentMedia } from '../schemas.ts';
import { recordMedia } from '../service.ts';
import { fromBase64, fromMultipart, fromUrl, type Upload } from '../sources.ts';

/** JSON bodies carry base64 (a third larger than the file); past this, send multipart. */
export const BASE64_BODY_CAP = 32 * 1024 * 1024;

/** The JSON body limit of POST /media: enough for base64 of the whole upload limit, up to the cap. */
export function jsonBodyLimit(mediaMaxBytes: number): number {
  return Math.max(1024 * 1024, Math.min(BASE64_BODY_CAP, Math.ceil(mediaMaxBytes / 3) * 4 + 64 * 1024));
}

const FileName = Type.String({ minLength: 1, maxLength: 255, description: 'Shown back as fileName; by default the name of the file or URL.' });
const DeclaredType = MediaTypeSchema('Optional; when given it must match the type read from the bytes.');

const JsonUpload = Type.Object({
  url: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: 'A public http(s) URL the service fetches (redirects followed, up to 5).' })),
  base64: Type.Optional(Type.String({ minLength: 1, description: 'The file in base64 (or a data: URL); for files up to about 24 MiB.' })),
  fileName: Type.Optional(FileName),
  mimeType: Type.Optional(DeclaredType),
});

const MultipartUpload = Type.Object({
  file: Type.String({ contentMediaType: 'application/octet-stream', description: 'The file; streamed to storage as it arrives.' }),
  fileName: Type.Optional(FileName),
  mimeType: Type.Optional(DeclaredType),
});

// Multipart bodies are read by the handler as a stream, so there is no parsed body to validate;
// JSON bodies are validated like everywhere else.
const jsonValidator = validatorCompiler([]);
const compileValidator: FastifySchemaCompiler<unknown> = (route) =>
  route.httpPart === 'body' && (route as { contentType?: string }).contentType === 'multipart/form-data'
    ? () => true
    : jsonValidator(route as Parameters<typeof jsonValidator>[0]);

/** An AbortSignal that fires when the client goes away before the answer is sent. */
function clientGone(request: FastifyRequest, reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('the client closed the connection'));
  });
  request.raw.once('error', () => controller.abort(new Error('the client connection failed')));
  return controller.signal;
}

export function createMedia(api: Api): void {
  const config = api.deps.config;
  const bodyLimit = jsonBodyLimit(config.mediaMaxBytes);
  void api.register(async (scope) => {
    await scope.register(multipart, {
      // One file, a few small fields. The file limit is one byte over MEDIA_MAX_BYTES so that the
      // upload's own counter sees the overflow and answers 413.
      limits: { files: 1, fields: 10, parts: 20, fieldSize: 1024, fileSize: config.mediaMaxBytes + 1, headerPairs: 100 },
      throwFileSizeLimit: false,
    });
    scope.addHook('onResponse', (request, _reply, done) => {
      drainRest(request.raw);
      done();
    });
    scope.post(
      '/media',
      {
        bodyLimit,
        validatorCompiler: compileValidator,
        errorHandler: (error: FastifyError, request, reply) => {
          const tooLarge = error.code === 'FST_ERR_CTP_BODY_TOO_LARGE';
          const answer = tooLarge ? errors.tooLarge(`body: JSON uploads are limited to ${bodyLimit} bytes; send larger files as multipart/form-data`) : error;
          void handleError(answer, request, reply);
        },
        schema: {
          operationId: 'createMedia',
          tags: ['Media'],
          summary: 'Upload a file: multipart, by URL, or base64',
          description:
            'The type is read from the bytes: image/jpeg, image/png, image/webp, image/gif, video/mp4 or video/quicktime. ' +
            'A declared mimeType that disagrees, another type, or an empty file is a 400 naming the field; ' +
            'a file over the upload limit (MEDIA_MAX_BYTES, 1 GiB by default) is a 413 payload_too_large and nothing is kept.',
          body: {
            content: {
              'multipart/form-data': { schema: MultipartUpload },
              'application/json': { schema: JsonUpload },
            },
          },
          response: { 201: Type.Object({ media: Type.Ref('Media') }, { description: 'The stored media.' }), ...errorResponses(400, 413) },
        },
      },
      async (request, reply) => {
        const { organizationId } = callerOf(request);
        const gone = clientGone(request, reply);
        let upload: Upload;
        if (request.isMultipart()) {
          upload = await fromMultipart(request, config);
        } else {
          // Validated against JsonUpload by the route schema.
          const body = request.body as Static<typeof JsonUpload> | undefined;
          const declared = body?.mimeType !== undefined && isMediaType(body.mimeType) ? body.mimeType : null;
          const fileName = body?.fileName ?? null;
          if (body?.url !== undefined && body.base64 !== undefined) throw errors.invalid('body', 'give url or base64, not both');
          if (body?.url !== undefined) upload = await fromUrl(body.url, declared, fileName, config, gone);
          else if (body?.base64 !== undefined) upload = await fromBase64(body.base64, declared, fileName, config);
          else throw errors.invalid('body', 'give a multipart file, or JSON with url or base64');
        }
        if (gone.aborted) {
          // Nobody will learn this media's id: keep nothing.
          await discardUpload(config, upload.stored).catch(() => undefined);
          throw errors.invalid('body', 'the client went away');
        }
        const row = await recordMedia(request.server.deps, organizationId, upload.stored, upload.fileName);
        return reply.code(201).send({ media: presentMedia(row, config) });
      },
    );
  });
}
