import { Body, Controller, Delete, Get, Param, Put } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../http/openapi/problem.schema';
import { SUBJECT_ID, SUBJECT_ID_RULE } from '../event-store/sealing/sealed-fields';
import { ValidationFailed } from '../shared/validation-failed';
import { ForgetSubject, LookUpSubject, SetSubjectNamespaces } from './subject-commands';
import { SubjectNamespacesDto, SubjectSchema } from './subjects.schema';

const ApiSubject = () =>
  ApiParam({
    name: 'subjectId',
    description:
      "Letters, digits and `_ . : @ -`, at most 200: as given in `context.subjectId` or a thread's `subjectId`.",
    example: 'user-42',
  });

function checked(subjectId: string): string {
  if (!SUBJECT_ID.test(subjectId)) {
    throw new ValidationFailed([{ path: 'subjectId', message: `must be ${SUBJECT_ID_RULE}` }]);
  }
  return subjectId;
}

/** Subjects: what is about a person, and forgetting it (docs/security.md, "Forgetting a person"). */
@ApiTags('subjects')
@Controller('v1/subjects')
export class SubjectsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @ApiOperation({ summary: 'What the service holds about a subject: its threads, runs and memory' })
  @ApiSubject()
  @ApiResponse({ status: 200, type: SubjectSchema })
  @ApiProblems(409)
  @Get(':subjectId')
  get(@Param('subjectId') subjectId: string) {
    return this.queries.execute(new LookUpSubject(checked(subjectId)));
  }

  @ApiOperation({ summary: 'Bind memory namespaces to a subject' })
  @ApiSubject()
  @ApiResponse({ status: 200, type: SubjectSchema })
  @ApiProblems(403, 409)
  @Put(':subjectId/namespaces')
  namespaces(@Param('subjectId') subjectId: string, @Body() { namespaces }: SubjectNamespacesDto) {
    return this.commands.execute(new SetSubjectNamespaces(checked(subjectId), namespaces));
  }

  /** 200 with what was forgotten: from now on its content reads as `{"forgotten": true}` everywhere. */
  @ApiOperation({ summary: "Forget a subject: destroy its data key, and its threads' and memory's content with it" })
  @ApiSubject()
  @ApiResponse({ status: 200, type: SubjectSchema })
  @ApiProblems(403, 409)
  @Delete(':subjectId')
  forget(@Param('subjectId') subjectId: string) {
    return this.commands.execute(new ForgetSubject(checked(subjectId)));
  }
}
